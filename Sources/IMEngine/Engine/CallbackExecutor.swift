import Dispatch

/// Where a session runs the app's callbacks (connect callbacks, status and message handlers).
///
/// Callbacks of one session are submitted in order; a serial executor keeps that order, so
/// `databaseOpened` runs before `completion`. The default is one serial queue per engine.
public struct CallbackExecutor: Sendable {
    private let submit: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// Runs each callback with `submit`, which must keep the order it is given them in.
    public init(_ submit: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.submit = submit
    }

    /// Runs callbacks on `queue`; give a serial queue to keep their order.
    public static func queue(_ queue: DispatchQueue) -> CallbackExecutor {
        CallbackExecutor { work in queue.async(execute: work) }
    }

    /// Runs callbacks at once, inside the session: they must be quick and must not block.
    public static let immediate = CallbackExecutor { work in work() }

    func run(_ work: @escaping @Sendable () -> Void) {
        submit(work)
    }
}
