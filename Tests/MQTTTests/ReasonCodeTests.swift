import MQTT
import Testing

struct ReasonCodeTests {
    @Test func allCodesOfTheStandardHaveNames() {
        #expect(ReasonCode.allDefined.count == 43)
        #expect(ReasonCode.allDefined.first == .success)
        #expect(ReasonCode.allDefined.last == .wildcardSubscriptionsNotSupported)
        #expect(ReasonCode.allDefined.allSatisfy { $0.isDefined && $0.name != "unknown reason code" && !$0.packetTypes.isEmpty })
    }

    @Test func descriptionsAreReadable() {
        #expect(ReasonCode.notAuthorized.description == "0x87 not authorized")
        #expect(ReasonCode.badUserNameOrPassword.description == "0x86 bad user name or password")
        #expect(ReasonCode.success.description == "0x00 success")
        #expect(ReasonCode.normalDisconnection.name(in: .disconnect) == "normal disconnection")
        #expect(ReasonCode.grantedQoS0.name(in: .suback) == "granted QoS 0")
        #expect(ReasonCode(0x05).description == "0x05 unknown reason code")
    }

    @Test func valuesMatchTheStandard() {
        let expected: [(ReasonCode, UInt8)] = [
            (.malformedPacket, 0x81), (.protocolError, 0x82), (.badUserNameOrPassword, 0x86), (.notAuthorized, 0x87),
            (.serverUnavailable, 0x88), (.serverBusy, 0x89), (.banned, 0x8A), (.serverShuttingDown, 0x8B),
            (.keepAliveTimeout, 0x8D), (.sessionTakenOver, 0x8E), (.packetTooLarge, 0x95), (.administrativeAction, 0x98),
            (.payloadFormatInvalid, 0x99), (.useAnotherServer, 0x9C), (.serverMoved, 0x9D), (.connectionRateExceeded, 0x9F),
            (.wildcardSubscriptionsNotSupported, 0xA2),
        ]
        for (code, value) in expected { #expect(code.rawValue == value) }
    }

    @Test func packetsEachCodeIsValidIn() {
        #expect(ReasonCode.notAuthorized.isValid(in: .connack))
        #expect(ReasonCode.notAuthorized.isValid(in: .suback))
        #expect(!ReasonCode.notAuthorized.isValid(in: .pubrel))
        #expect(ReasonCode.sessionTakenOver.packetTypes == [.disconnect])
        #expect(ReasonCode.connectionRateExceeded.isValid(in: .connack))
        #expect(ReasonCode.success.isValid(in: .auth))
        #expect(!ReasonCode.continueAuthentication.isValid(in: .connack))
    }

    @Test func subackCodesAreGrantedQoS() {
        #expect(ReasonCode.granted(.atLeastOnce) == .grantedQoS1)
        #expect(ReasonCode.grantedQoS2.grantedQoS == .exactlyOnce)
        #expect(ReasonCode.notAuthorized.grantedQoS == nil)
        #expect(ReasonCode.notAuthorized.isFailure && !ReasonCode.noMatchingSubscribers.isFailure)
    }

    @Test func errorsMapToReasonCodes() {
        #expect(MQTTError(.truncated, "x").reasonCode == .malformedPacket)
        #expect(MQTTError(FrameError.variableIntegerTooLong).reasonCode == .malformedPacket)
        #expect(FrameError.packetTooLarge(size: 10, maximum: 5).reasonCode == .packetTooLarge)
    }
}
