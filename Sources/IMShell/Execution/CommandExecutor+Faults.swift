import IMChaos
import IMProfiles
import IMProtocol

#if canImport(Glibc)
import Glibc
#endif

extension CommandExecutor {
    /// `server stop|start|kill|move|block-app|unblock-app`, on the embedded server of the active profile.
    func server(_ action: ServerAction) async throws(ShellError) -> CommandResult {
        let profile = try context.activeOrFail()
        guard profile.server == .embedded else {
            throw ShellError("server: profile \(profile.name) is not on the embedded server (its server is \(profile.server)): imsh can stop and start only its own")
        }
        switch action {
        case .stop, .kill:
            try await registry.server.interrupt(crash: action == .kill)
            let how = action == .kill ? "killed: every connection reset, no DISCONNECT" : "stopped: every client told (DISCONNECT 0x8B)"
            return CommandResult(output: .done("embedded server \(how); its store is kept"))
        case .move:
            let new = try await registry.server.move()
            return CommandResult(output: .done(
                "embedded server moved to \(new.host):\(new.port); every client was sent there (DISCONNECT 0x9C with it as Server Reference)"))
        case .start:
            let server = try await registry.server.resume()
            return CommandResult(output: .done("embedded server started again on \(server.mqttAddress.host):\(server.mqttAddress.port)"))
        case .blockApp, .unblockApp:
            let blocked = action == .blockApp
            // The engine first: it takes the data directory, where the embedded server keeps its files.
            _ = try await registry.engine(for: profile)
            do {
                try await registry.server.running().setAppBlocked(profile.appKey, blocked)
            } catch {
                throw ShellError("server \(action.rawValue): \(error)")
            }
            let what = blocked ? "blocked: its logins are refused (31008)" : "unblocked: its logins are let in again"
            return CommandResult(output: .done("app \(profile.appKey) \(what)"))
        }
    }

    /// `link ACCOUNT FAULT`: the fault on the proxy in front of the account, set up first if need be.
    func link(_ reference: AccountReference, _ fault: LinkFault) async throws(ShellError) -> CommandResult {
        let account = try context.account(reference)
        let profile = try context.profile(named: account.profile)
        guard account.proxy == nil else {
            throw ShellError("link: \(account.reference) goes through a SOCKS5 proxy; a fault proxy cannot go in front of it as well")
        }
        if await registry.links.address(of: account.reference) == nil, let session = await registry.session(account.reference), await session.phase.isActive {
            throw ShellError("link: \(account.reference) is connected straight to its server; give 'link \(account.reference) clear' before its connect, so that its connections go through the proxy")
        }
        let target: ServerAddress
        switch profile.server {
        case .embedded:
            // The engine first: it takes the data directory, where the embedded server keeps its files.
            _ = try await registry.engine(for: profile)
            let servers = account.platform == .web
                ? try await registry.server.webServers(tls: profile.tls != nil) : try await registry.server.mqttServers(tls: profile.tls != nil)
            guard let first = servers.first else { throw ShellError("link: the embedded server has no listener for \(account.reference)") }
            target = first
        case .addresses(let addresses):
            // The engine tries the others after 250 ms: only the first is reached through the proxy.
            guard let first = addresses.first else { throw ShellError("link: profile \(profile.name) names no server") }
            target = first
        }
        let proxy = try await registry.links.proxy(for: account.reference, target: target)
        switch fault {
        case .delay(let milliseconds):
            await proxy.set(.pass)
            if milliseconds > 0 { await proxy.set(.delay(.milliseconds(milliseconds))) }
        case .loss(let percent):
            await proxy.set(.pass)
            if percent > 0 { await proxy.set(.loss(percent: percent)) }
        case .blackhole:
            await proxy.set(.blackhole)
        case .clear:
            await proxy.set(.pass)
        }
        var message = "link \(fault.description) (proxy 127.0.0.1:\(proxy.port) to \(target.host):\(target.port))"
        // What was lost can be drawn again: imsh --seed N.
        if case .loss = fault { message += ", seed \(registry.links.seed)" }
        return .outcomes([AccountOutcome(account: account.reference, ok: true, message: message)])
    }

    /// `database ACCOUNT damage`: the account's session closed, then the head of its database
    /// file overwritten, in place (the same inode, as a disk fault leaves it).
    func damageDatabase(_ reference: AccountReference) async throws(ShellError) -> CommandResult {
        let account = try context.account(reference).reference
        guard let file = book.snapshot(of: account)?.databaseFile else {
            throw ShellError("database: \(account) has no local database yet; connect it first")
        }
        await registry.closeSession(account)
        let descriptor = open(file, O_WRONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw ShellError("database: cannot open \(file): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let garbage = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        guard pwrite(descriptor, garbage, garbage.count, 0) == garbage.count else {
            throw ShellError("database: cannot write \(file): \(String(cString: strerror(errno)))")
        }
        return .outcomes([AccountOutcome(account: account, ok: true, message: "session ended; \(file) damaged (its first 4 KiB overwritten)")])
    }

    /// `require api|embedded`: nothing when the active profile meets it; a skip otherwise.
    func require(_ requirement: Requirement) throws(ShellError) -> CommandResult {
        let profile = try context.activeOrFail()
        let unmet: String?
        switch (requirement, profile.server) {
        case (.embedded, .embedded), (.api, .embedded):
            unmet = nil
        case (.embedded, .addresses):
            unmet = "needs the embedded server (profile \(profile.name) has servers of its own)"
        case (.api, .addresses):
            unmet = profile.api == nil ? "needs the server API (profile \(profile.name) has no api)"
                : profile.appSecret == nil ? "needs the server API (profile \(profile.name) has no appSecret)" : nil
        }
        guard let unmet else {
            let met = requirement == .api ? "can call the server API" : "is on the embedded server"
            return CommandResult(output: .done("profile \(profile.name) \(met)"))
        }
        return CommandResult(output: .skipped(reason: unmet))
    }
}
