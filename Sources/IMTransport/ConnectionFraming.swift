/// How a connection cuts the bytes it reads into the frames its handler receives.
public enum ConnectionFraming: Sendable, Equatable {
    /// Whole MQTT packets, cut by their fixed header (the default).
    case mqtt
    /// No framing: each chunk read from the socket is handed over as it arrives, for protocols
    /// that parse their own byte stream (HTTP). A chunk is at most the loop's read buffer
    /// (64 KiB); `maximumFrameSize` does not apply. Pausing stops further reads as usual.
    case raw
}
