import IMEngine
import IMProfiles
import IMProtocol
import IMTimeline

extension CommandExecutor {
    /// Reads each account's log from its files (a session need not exist; a live one's file
    /// is read through it), builds the lanes, and writes the SVG and HTML files asked for.
    func timeline(_ selection: AccountSelection?, _ request: TimelineRequest) async throws(ShellError) -> CommandResult {
        let accounts = try await accounts(selection ?? .all(profile: nil), sessionsOnly: false)
        var sources: [LaneSource] = []
        for account in accounts {
            guard let profile = context.profiles.profile(named: account.profile) else { continue }
            let read = await AccountLogReader.read(
                accountDirectory: registry.directory(of: account.reference), appKey: profile.appKey,
                live: try await liveLog(of: account.reference))
            if let problem = read.problems.first { throw ShellError("\(account.reference): \(problem)") }
            sources.append(LaneSource(name: account.reference.description, userID: account.userID ?? read.userID, entries: read.entries))
        }
        let until = request.until.resolve(now: WallClock.milliseconds())
        let timeline = Timeline(sources, since: request.since.map { until - $0 }, until: until)
        var written: [String] = []
        for (file, text) in [(request.svgFile, { SVGTimeline().document(timeline) }), (request.htmlFile, { HTMLTimeline().page(timeline) })] {
            guard let file else { continue }
            if let failure = PrivateFile.write(text(), to: file) { throw ShellError(failure) }
            written.append(file)
        }
        return CommandResult(output: .timeline(timeline, written: written))
    }

    /// The log of the file `reference`'s session has open, by path; empty without a session.
    private func liveLog(of reference: AccountReference) async throws(ShellError) -> [String: [ConnectionLogEntry]] {
        guard let session = await registry.session(reference), let file = await session.databaseFile else { return [:] }
        do {
            return [file: try await session.connectionLog(limit: AccountLogReader.entryLimit)]
        } catch {
            throw ShellError("\(reference): \(error)")
        }
    }
}
