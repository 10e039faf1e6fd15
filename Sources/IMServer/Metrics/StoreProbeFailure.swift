/// Why a store call of a scrape or a readiness check gave no value: it failed, or it did not
/// answer within `ServerMetrics.storeProbeTimeout`.
struct StoreProbeFailure: Error, Sendable {
    let reason: String
}
