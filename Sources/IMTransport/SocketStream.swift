#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP socket as a `ByteStream`. It owns the descriptor and closes it once, unless
/// made with `owned: false` (a blocking client that closes its socket itself).
final class SocketStream: ByteStream {
    let fileDescriptor: Int32
    private var isClosed: Bool

    init(fileDescriptor: Int32, owned: Bool = true) {
        self.fileDescriptor = fileDescriptor
        self.isClosed = !owned
    }

    deinit {
        close(abortively: false)
    }

    /// recv(2) on a stream socket returns what the receive queue holds, up to the buffer.
    var shortReadDrainsSocket: Bool { true }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(TransportError) -> IOResult {
        while true {
            let count = recv(fileDescriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .processed(count) }
            if count == 0 { return .endOfStream }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN { return .wouldBlock }
            throw .ioFailure("recv", code: code)
        }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(TransportError) -> IOResult {
        while true {
            // MSG_NOSIGNAL: a peer that went away yields EPIPE, not a SIGPIPE that kills the process.
            let count = send(fileDescriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return count > 0 || bytes.isEmpty ? .processed(count) : .wouldBlock }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN { return .wouldBlock }
            throw .ioFailure("send", code: code)
        }
    }

    func shutdownOutput() {
        guard !isClosed else { return }
        _ = shutdown(fileDescriptor, Int32(SHUT_WR))
    }

    func close(abortively: Bool) {
        guard !isClosed else { return }
        isClosed = true
        if abortively {
            // Linger on with a zero timeout: close sends RST and drops unsent bytes.
            var option = linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(fileDescriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        }
        _ = Glibc.close(fileDescriptor)
    }
}
