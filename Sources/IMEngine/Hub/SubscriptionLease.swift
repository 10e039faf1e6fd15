/// Holds a hub subscription for whatever captures it, and cancels it when that goes away (a
/// stream dropped by its reader).
final class SubscriptionLease: Sendable {
    let subscription: SessionEventSubscription

    init(_ subscription: SessionEventSubscription) {
        self.subscription = subscription
    }

    deinit {
        subscription.cancel()
    }
}
