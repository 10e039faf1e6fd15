import IMChaos
import IMProfiles
import IMProtocol

/// The fault proxies `link` puts in front of accounts: one per account, on 127.0.0.1, for
/// the rest of the run. The account's connections made after its first `link` go to the
/// proxy, which carries them on to the server the account would have reached.
actor LinkProxies {
    private struct Entry {
        var proxy: FaultProxy
        /// What the session is given instead of its server: the proxy, spoken to as the server was.
        var address: ServerAddress
    }

    private var entries: [AccountReference: Entry] = [:]
    /// The run's seed: the n-th proxy made draws from `seed + n`, so a script replays its draws.
    let seed: UInt64

    init(seed: UInt64) {
        self.seed = seed
    }

    /// The address the account's sessions connect to, when a proxy is in front of it.
    func address(of account: AccountReference) -> ServerAddress? {
        entries[account]?.address
    }

    /// The account's proxy, started in front of `target` on first use.
    func proxy(for account: AccountReference, target: ServerAddress) throws(ShellError) -> FaultProxy {
        if let entry = entries[account] { return entry.proxy }
        let proxy: FaultProxy
        do {
            proxy = try FaultProxy(targetHost: target.host, targetPort: target.port, seed: seed &+ UInt64(entries.count))
        } catch {
            throw ShellError("link: cannot start a fault proxy on 127.0.0.1: \(error)")
        }
        let address = ServerAddress(host: proxy.address.host, port: proxy.port, tls: target.tls, webSocketPath: target.webSocketPath)
        entries[account] = Entry(proxy: proxy, address: address)
        return proxy
    }

    /// Stops every proxy (their connections reset), at shutdown.
    func stopAll() async {
        let proxies = entries.values.map(\.proxy)
        entries = [:]
        for proxy in proxies { await proxy.stop() }
    }
}
