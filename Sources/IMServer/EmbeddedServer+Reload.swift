extension EmbeddedServer {
    /// Applies a configuration read again, clients staying connected: the apps (with the
    /// store's overrides) and the limits that apply as connections come. Returns the fields
    /// that differ but wait for a restart (`ServerLimits.fixedAtStart`).
    ///
    /// - Throws: when the store cannot give the apps' overrides; nothing changed then.
    public func reconfigure(_ configuration: ServerConfiguration) async throws(ServerStoreError) -> [String] {
        let apps = try await store.effectiveApps(configured: configuration.apps)
        let core = self.core
        let waiting = await onLoop { () -> [String] in
            let fixed = core.value.limits.fixedAtStart(differingIn: configuration.limits)
            core.value.reconfigure(configuration, apps: apps)
            return fixed
        }
        guard let waiting else {
            throw .failed(operation: "reload the configuration", path: store.location, reason: "the server is stopping")
        }
        return waiting
    }
}
