import IMProfiles
import IMProtocol
import IMThreads
import IMTransport

/// Whether the servers of the scenarios' profiles answer at all, asked once before any
/// scenario runs: a server that cannot be reached fails its scenarios with that reason at
/// once, rather than each step of each scenario waiting out its timeout.
///
/// A TCP connection to one of the profile's addresses is enough. Embedded profiles need no
/// probe (each scenario starts its own server), nor can profiles whose accounts go through a
/// proxy be judged from here: those are left to the scenario.
enum ServerProbe {
    /// How long one address may take to accept.
    static let timeout: Duration = .seconds(3)

    /// For each profile among `names` whose server cannot be reached, why.
    static func unreachable(_ names: Set<String>, in profiles: ProfileSet) async -> [String: String] {
        let probed = names.sorted().compactMap { name -> (String, [ServerAddress])? in
            guard let profile = profiles.profile(named: name), case .addresses(let addresses) = profile.server,
                profile.accounts.allSatisfy({ $0.proxy == nil }), !addresses.isEmpty
            else { return nil }
            return (name, addresses)
        }
        guard !probed.isEmpty else { return [:] }
        let group: EventLoopGroup
        do {
            group = try EventLoopGroup(threads: 1, name: "imsh-test-probe")
        } catch {
            return [:]
        }
        let loop = group.next()
        var reasons: [String: String] = [:]
        await withTaskGroup(of: (String, String?).self) { tasks in
            for (name, addresses) in probed {
                tasks.addTask { (name, await reason(addresses, loop: loop)) }
            }
            for await (name, reason) in tasks { reasons[name] = reason }
        }
        // Joining the loop's thread blocks: not on the cooperative pool.
        await BlockingCall.run { group.shutdown() }
        return reasons
    }

    /// Nil when an address accepts a connection; otherwise what each said.
    private static func reason(_ addresses: [ServerAddress], loop: EventLoop) async -> String? {
        var failures: [String] = []
        for address in addresses {
            do {
                let connection = try await Connection.connect(
                    to: address.host, port: address.port, options: ConnectOptions(timeout: timeout), on: loop)
                connection.close(.abortive)
                return nil
            } catch {
                failures.append("\(address.url): \(error)")
            }
        }
        return "the server cannot be reached (" + failures.joined(separator: "; ") + ")"
    }
}
