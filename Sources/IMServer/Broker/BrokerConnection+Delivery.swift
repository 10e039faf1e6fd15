import MQTT

extension BrokerConnection {
    /// An online connection's deliveries: its subscription and the reading of its queue.
    ///
    /// Only the connection holds one (in `State.online`), and changes it through these methods.
    struct Delivery {
        /// Where the reading of the device's queue stands.
        enum Reading: Equatable {
            /// No read under way; new messages are read rather than offered.
            case idle
            /// A read is under way, one at a time; `again`: a wake-up came meanwhile, so
            /// another read follows this one.
            case fetching(again: Bool)
            /// The last read left the connection caught up (`QueueRead.caughtUp`) and every
            /// message stored for the device since was handed over: a new one may go out
            /// without a read (`Deliveries.offer`).
            case caughtUp
        }

        /// Subscribed to the inbox.
        private(set) var subscribed = false
        /// The QoS granted for the inbox: deliveries go at it (a QoS 1 message at QoS 0 or 1).
        /// After an UNSUBSCRIBE, the last one granted (a read under way still delivers).
        private(set) var qos = QoS.atLeastOnce
        private(set) var reading = Reading.idle

        mutating func subscribe(at qos: QoS) {
            subscribed = true
            self.qos = qos
        }

        /// Returns whether it was subscribed.
        mutating func unsubscribe() -> Bool {
            defer { subscribed = false }
            return subscribed
        }

        /// Starts a read of the queue if one may start: subscribed, `room` in the window and no
        /// read under way (one that is, is asked to read again after it). Returns whether it did.
        mutating func beginRead(room: Int) -> Bool {
            guard subscribed else { return false }
            if case .fetching = reading {
                reading = .fetching(again: true)
                return false
            }
            guard room > 0 else { return false }
            reading = .fetching(again: false)
            return true
        }

        /// The read under way was answered; returns whether another was asked for meanwhile.
        mutating func endRead() -> Bool {
            defer { reading = .idle }
            return reading == .fetching(again: true)
        }

        /// The read just answered left the connection caught up.
        mutating func catchUp() {
            if reading == .idle { reading = .caughtUp }
        }

        /// A new message was left for a read: no longer caught up.
        mutating func fallBehind() {
            if reading == .caughtUp { reading = .idle }
        }
    }
}
