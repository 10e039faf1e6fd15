import IMProtocol
import MQTT

/// Reads a refusal (CONNACK) or a server-side DISCONNECT the way contract section 2 says:
/// the `im-error` name decides where there is one; otherwise the MQTT reason code alone,
/// so a stock broker's refusals are understood too.
public enum ServerVerdict: Sendable, Equatable {
    /// Retry on the backoff schedule, or stop with a status and code.
    case failure(SessionStateMachine.Failure)
    /// Retry at once at this server (0x9C use another server / 0x9D server moved).
    case redirect(String)

    /// The verdict on a CONNACK with a failure reason code.
    public static func connack(_ reason: ReasonCode, imError: IMErrorName?, serverReference: String?) -> ServerVerdict {
        if let verdict = named(imError) { return verdict }
        switch reason {
        case .badUserNameOrPassword, .notAuthorized:
            return stop(.tokenIncorrect, .tokenIncorrect, "credentials refused (\(reason))")
        case .banned:
            return stop(.disconnException, .userBlocked, "banned (\(reason))")
        default:
            return common(reason, serverReference: serverReference)
                ?? stop(.unconnected, nil, "connection refused (\(reason))")
        }
    }

    /// The verdict on a DISCONNECT the server sent.
    public static func disconnect(_ reason: ReasonCode, imError: IMErrorName?, serverReference: String?) -> ServerVerdict {
        if let verdict = named(imError) { return verdict }
        switch reason {
        case .sessionTakenOver, .administrativeAction:
            return stop(.kickedOfflineByOtherClient, .kickedByOtherClient, "disconnected by the server (\(reason))")
        case .banned:
            return stop(.disconnException, .userBlocked, "banned (\(reason))")
        case .notAuthorized:
            return stop(.tokenIncorrect, .tokenIncorrect, "not authorized (\(reason))")
        default:
            return common(reason, serverReference: serverReference) ?? .failure(.retryable("disconnected by the server (\(reason))"))
        }
    }

    /// Conditions that mean the same in CONNACK and DISCONNECT.
    private static func common(_ reason: ReasonCode, serverReference: String?) -> ServerVerdict? {
        switch reason {
        case .useAnotherServer, .serverMoved:
            if let serverReference, !serverReference.isEmpty { return .redirect(serverReference) }
            return .failure(.retryable("\(reason) without a server reference"))
        case .unspecifiedError, .implementationSpecificError, .serverUnavailable, .serverBusy, .serverShuttingDown,
             .keepAliveTimeout, .quotaExceeded, .connectionRateExceeded, .messageRateTooHigh, .maximumConnectTime:
            return .failure(.retryable("\(reason)"))
        default:
            return nil
        }
    }

    private static func named(_ name: IMErrorName?) -> ServerVerdict? {
        switch name {
        case .tokenIncorrect?: return stop(.tokenIncorrect, .tokenIncorrect, "token-incorrect")
        case .tokenExpired?: return stop(.tokenIncorrect, .tokenExpired, "token-expired")
        case .userBlocked?: return stop(.disconnException, .userBlocked, "user-blocked")
        case .userAbandoned?: return stop(.userAbandon, nil, "user-abandoned")
        case .appBlocked?: return stop(.unconnected, .appBlockedOrDeleted, "app-blocked")
        case .appUnknown?: return stop(.unconnected, .appBlockedOrDeleted, "app-unknown")
        case .kicked?: return stop(.kickedOfflineByOtherClient, .kickedByOtherClient, "kicked")
        case .otherDeviceLogin?: return stop(.kickedOfflineByOtherClient, .kickedByOtherClient, "other-device-login")
        case .otherDeviceOnline?: return stop(.kickedOfflineByOtherClient, .otherDeviceLogin, "other-device-online")
        default: return nil
        }
    }

    private static func stop(_ status: ConnectionStatus, _ code: ConnectErrorCode?, _ detail: String) -> ServerVerdict {
        .failure(.terminal(SessionTermination(status, code, detail: detail)))
    }
}
