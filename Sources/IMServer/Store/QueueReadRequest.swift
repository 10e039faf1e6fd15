/// A read of one device's queue: up to `limit` messages after message id `after`.
struct QueueReadRequest: Sendable {
    let device: DeviceKey
    let after: Int64
    let limit: Int
}
