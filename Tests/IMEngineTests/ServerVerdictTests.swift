import IMEngine
import IMProtocol
import MQTT
import Testing

/// Every row of contract section 2, as the engine reads it.
struct ServerVerdictTests {
    static func stop(_ status: ConnectionStatus, _ code: ConnectErrorCode?) -> ServerVerdict {
        .failure(.terminal(SessionTermination(status, code)))
    }

    static let connackRows: [(ReasonCode, IMErrorName?, ServerVerdict)] = [
        (.badUserNameOrPassword, .tokenIncorrect, stop(.tokenIncorrect, .tokenIncorrect)),
        (.badUserNameOrPassword, .tokenExpired, stop(.tokenIncorrect, .tokenExpired)),
        (.banned, .userBlocked, stop(.disconnException, .userBlocked)),
        (.notAuthorized, .userAbandoned, stop(.userAbandon, nil)),
        (.notAuthorized, .appBlocked, stop(.unconnected, .appBlockedOrDeleted)),
        (.notAuthorized, .appUnknown, stop(.unconnected, .appBlockedOrDeleted)),
        (.notAuthorized, .otherDeviceOnline, stop(.kickedOfflineByOtherClient, .otherDeviceLogin)),
        // A stock broker: no im-error.
        (.badUserNameOrPassword, nil, stop(.tokenIncorrect, .tokenIncorrect)),
        (.notAuthorized, nil, stop(.tokenIncorrect, .tokenIncorrect)),
        (.banned, nil, stop(.disconnException, .userBlocked)),
        (.unsupportedProtocolVersion, nil, stop(.unconnected, nil)),
    ]

    @Test(arguments: connackRows) func connackRefusals(reason: ReasonCode, name: IMErrorName?, expected: ServerVerdict) {
        #expect(ServerVerdict.connack(reason, imError: name, serverReference: nil) == expected)
    }

    static let disconnectRows: [(ReasonCode, IMErrorName?, ServerVerdict)] = [
        (.administrativeAction, .userBlocked, stop(.disconnException, .userBlocked)),
        (.administrativeAction, .userAbandoned, stop(.userAbandon, nil)),
        (.administrativeAction, .kicked, stop(.kickedOfflineByOtherClient, .kickedByOtherClient)),
        (.sessionTakenOver, .otherDeviceLogin, stop(.kickedOfflineByOtherClient, .kickedByOtherClient)),
        (.sessionTakenOver, nil, stop(.kickedOfflineByOtherClient, .kickedByOtherClient)),
        (.administrativeAction, nil, stop(.kickedOfflineByOtherClient, .kickedByOtherClient)),
        (.banned, nil, stop(.disconnException, .userBlocked)),
    ]

    @Test(arguments: disconnectRows) func serverDisconnects(reason: ReasonCode, name: IMErrorName?, expected: ServerVerdict) {
        #expect(ServerVerdict.disconnect(reason, imError: name, serverReference: nil) == expected)
    }

    @Test(arguments: [ReasonCode.serverBusy, .serverUnavailable, .connectionRateExceeded])
    func busyRefusalsAreRetried(reason: ReasonCode) {
        guard case .failure(.retryable) = ServerVerdict.connack(reason, imError: nil, serverReference: nil) else {
            Issue.record("\(reason) should be retried")
            return
        }
    }

    @Test(arguments: [ReasonCode.serverShuttingDown, .keepAliveTimeout])
    func shutdownAndKeepAliveDisconnectsAreRetried(reason: ReasonCode) {
        guard case .failure(.retryable) = ServerVerdict.disconnect(reason, imError: nil, serverReference: nil) else {
            Issue.record("\(reason) should be retried")
            return
        }
    }

    @Test(arguments: [ReasonCode.useAnotherServer, .serverMoved]) func redirectsAreFollowed(reason: ReasonCode) {
        #expect(ServerVerdict.connack(reason, imError: nil, serverReference: "127.0.0.1:1884") == .redirect("127.0.0.1:1884"))
        #expect(ServerVerdict.disconnect(reason, imError: nil, serverReference: "127.0.0.1:1884") == .redirect("127.0.0.1:1884"))
        guard case .failure(.retryable) = ServerVerdict.connack(reason, imError: nil, serverReference: nil) else {
            Issue.record("a redirect without a reference should be retried")
            return
        }
    }

    @Test func unknownIMErrorFallsBackToTheReasonCode() {
        #expect(ServerVerdict.connack(.banned, imError: IMErrorName(rawValue: "from-the-future"), serverReference: nil)
            == Self.stop(.disconnException, .userBlocked))
    }
}
