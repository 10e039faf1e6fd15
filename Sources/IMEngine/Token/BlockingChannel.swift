// CNetlink includes <sys/socket.h>: in whole-module builds its SOCK_* hide Glibc's, so take them from it.
import CNetlink
import IMTransport
#if canImport(Glibc)
import Glibc
#endif

/// A connected non-blocking socket read and written within a deadline, plain or over TLS
/// (an https token URL). It does not close the socket: its owner does.
struct BlockingChannel {
    let fd: Int32
    let tls: TLSClientSession?

    /// Over TLS with `settings`, the handshake and the server's verification done here.
    init(fd: Int32, tls settings: TLSConnectSettings?, deadline: ContinuousClock.Instant) throws(SourceFailure) {
        self.fd = fd
        guard let settings else {
            tls = nil
            return
        }
        let session: TLSClientSession
        do throws(TransportError) {
            session = try Self.session(fd, settings)
            while let wait = try session.handshake() {
                guard Self.await(wait, fd, deadline) else {
                    throw .tls(TLSFailure(.handshake, "the TLS handshake did not finish in time"))
                }
            }
        } catch {
            throw SourceFailure("\(error)")
        }
        tls = session
    }

    private static func session(_ fd: Int32, _ settings: TLSConnectSettings) throws(TransportError) -> TLSClientSession {
        do throws(TLSFailure) {
            return try TLSClientSession(fileDescriptor: fd, settings: settings)
        } catch {
            throw .tls(error)
        }
    }

    /// Sends all of `bytes`; the reason when it could not.
    func send(_ bytes: [UInt8], deadline: ContinuousClock.Instant) -> String? {
        var offset = 0
        while offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { write($0) }
            switch result {
            case .success(let count) where count > 0:
                offset += count
            case .success:
                guard Self.await(tls?.wait ?? .writable, fd, deadline) else { return "send timed out" }
            case .failure(let failure):
                return failure.reason
            }
        }
        return nil
    }

    /// Reads what is there into `buffer`: a count, 0 at the end of the stream.
    func receive(into buffer: inout [UInt8], deadline: ContinuousClock.Instant) -> Result<Int, SourceFailure> {
        while true {
            let result = buffer.withUnsafeMutableBytes { read($0) }
            switch result {
            case .success(let count?):
                return .success(count)
            case .success(nil):
                guard Self.await(tls?.wait ?? .readable, fd, deadline) else {
                    return .failure(SourceFailure("no complete answer in time"))
                }
            case .failure(let failure):
                return .failure(failure)
            }
        }
    }

    /// Bytes written, 0 when the socket (or TLS) must wait first.
    private func write(_ bytes: UnsafeRawBufferPointer) -> Result<Int, SourceFailure> {
        if let tls {
            do throws(TransportError) {
                if case .processed(let count) = try tls.write(bytes) { return .success(count) }
                return .success(0)
            } catch {
                return .failure(SourceFailure("\(error)"))
            }
        }
        let sent = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        if sent >= 0 { return .success(sent) }
        return errno == EINTR || errno == EAGAIN ? .success(0) : .failure(SourceFailure("send: \(BlockingIO.reason())"))
    }

    /// Bytes read (0 at the end), nil when the socket (or TLS) must wait first.
    private func read(_ buffer: UnsafeMutableRawBufferPointer) -> Result<Int?, SourceFailure> {
        if let tls {
            do throws(TransportError) {
                switch try tls.read(into: buffer) {
                case .processed(let count): return .success(count)
                case .endOfStream: return .success(0)
                case .wouldBlock: return .success(nil)
                }
            } catch {
                return .failure(SourceFailure("\(error)"))
            }
        }
        let count = recv(fd, buffer.baseAddress, buffer.count, 0)
        if count >= 0 { return .success(count) }
        return errno == EINTR || errno == EAGAIN ? .success(nil) : .failure(SourceFailure("recv: \(BlockingIO.reason())"))
    }

    /// Polls for `wait`; false once the deadline passed.
    private static func await(_ wait: TLSClientSession.Wait, _ fd: Int32, _ deadline: ContinuousClock.Instant) -> Bool {
        !BlockingIO.wait([fd], for: Int16(wait == .readable ? POLLIN : POLLOUT), until: deadline).isEmpty
    }
}
