/// The apps the broker serves: as configured, and as the store's overrides (`imserver app`)
/// leave them. A part of `BrokerCore`, which reads the store and hands the answers here.
struct Apps {
    /// As configured (read again at a reload).
    private(set) var configured: [AppSettings]
    /// The store's change counter as last seen, to notice `imserver app` edits.
    private(set) var lastExternalChange: Int64?
    /// `configured` with the store's overrides applied, by app key.
    private var effective: [String: AppSettings]

    init(configured: [AppSettings], effective: [AppSettings]) {
        self.configured = configured
        self.effective = Self.byKey(effective)
    }

    /// The app `appKey`, overrides applied; nil for an app not configured.
    subscript(appKey: String) -> AppSettings? { effective[appKey] }

    /// Every app, overrides applied.
    var all: [AppSettings] { Array(effective.values) }

    /// A configuration read again (SIGHUP): its apps, and those with the overrides applied.
    mutating func reconfigure(_ configured: [AppSettings], effective: [AppSettings]) {
        self.configured = configured
        self.effective = Self.byKey(effective)
    }

    /// The store's change counter as read now, with the apps read again if they were.
    mutating func reloaded(counter: Int64, effective: [AppSettings]?) {
        lastExternalChange = counter
        if let effective { self.effective = Self.byKey(effective) }
    }

    private static func byKey(_ apps: [AppSettings]) -> [String: AppSettings] {
        Dictionary(apps.map { ($0.appKey, $0) }, uniquingKeysWith: { _, last in last })
    }
}
