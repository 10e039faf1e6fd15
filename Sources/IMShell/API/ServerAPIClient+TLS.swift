import IMTransport

extension ServerAPIClient {
    /// TLS for an https base URL; nil for http. A context that cannot be built fails the call.
    func tlsSettings() throws(ExchangeFailure) -> TLSConnectSettings? {
        guard baseURL.isSecure else { return nil }
        let configuration = tls ?? TLSClientConfiguration()
        do throws(TLSFailure) {
            return TLSConnectSettings(
                context: try TLSContext.client(configuration), serverName: configuration.serverName ?? baseURL.host)
        } catch {
            throw ExchangeFailure("\(error)")
        }
    }
}
