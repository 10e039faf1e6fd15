import IMProtocol
import IMTransport

/// TLS for `mqtts://` servers, and recognising a TLS port dialled without it.
extension ConnectionAttempt {
    /// The TLS context and name for `server`; a context that cannot be built is a TLS failure.
    func tlsSettings(for server: ServerAddress) throws(TransportError) -> TLSConnectSettings {
        var configuration = tls
        configuration.alpn = ["mqtt"]
        do throws(TLSFailure) {
            return TLSConnectSettings(context: try TLSContext.client(configuration), serverName: tls.serverName ?? server.host)
        } catch {
            throw .tls(error)
        }
    }

    /// Whether `frame` starts like a TLS record (an alert or handshake, version 3.x), which is
    /// how a TLS port answers a plaintext CONNECT.
    static func isTLSRecord(_ frame: [UInt8]) -> Bool {
        frame.count >= 2 && (frame[0] == 0x15 || frame[0] == 0x16) && frame[1] == 0x03
    }
}
