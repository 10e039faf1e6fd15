extension BrokerCore {
    /// Takes a configuration read again (SIGHUP) with connections left as they are: `apps`
    /// (the new configuration's, overrides applied) for the next logins and API requests, and
    /// the limits checked as connections come (maxConnections, connectRate, connectTimeout).
    /// The others are fixed in the listeners at start (`ServerLimits.fixedAtStart`).
    func reconfigure(_ configuration: ServerConfiguration, apps: [AppSettings]) {
        self.apps.reconfigure(configuration.apps, effective: apps)
        if configuration.limits.connectRate != limits.connectRate {
            logins.connectRateChanged(to: configuration.limits.connectRate)
        }
        limits.maxConnections = configuration.limits.maxConnections
        limits.connectRate = configuration.limits.connectRate
        limits.connectTimeout = configuration.limits.connectTimeout
    }
}
