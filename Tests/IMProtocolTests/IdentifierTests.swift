import IMProtocol
import Testing

struct IdentifierTests {
    @Test func userIDs() {
        #expect(IMIdentifier.isValidUserID("a"))
        #expect(IMIdentifier.isValidUserID("Az09+=_-"))
        #expect(IMIdentifier.isValidUserID(String(repeating: "u", count: 64)))
        #expect(!IMIdentifier.isValidUserID(String(repeating: "u", count: 65)))
        for bad in ["", "a/b", "..", "a.b", "a b", "ü", "用户", "a\u{0}", "a#", "+/"] {
            #expect(!IMIdentifier.isValidUserID(bad), "\(bad)")
        }
    }

    @Test func deviceIDs() {
        #expect(IMIdentifier.isValidDeviceID("device_01-A"))
        #expect(IMIdentifier.isValidDeviceID(String(repeating: "d", count: 64)))
        #expect(!IMIdentifier.isValidDeviceID(String(repeating: "d", count: 65)))
        for bad in ["", "a+b", "a=b", "a/b", "..", "é", "a b"] {
            #expect(!IMIdentifier.isValidDeviceID(bad), "\(bad)")
        }
    }

    @Test func topicsBuildAndParse() {
        #expect(IMTopic.send(to: "bob").name == "im/send/bob")
        #expect(IMTopic.inbox(from: "alice").name == "im/inbox/alice")
        #expect(IMTopic("im/send/bob") == .send(to: "bob"))
        #expect(IMTopic("im/inbox/a=b") == .inbox(from: "a=b"))
        #expect(IMTopic("im/inbox/a=b")?.userID == "a=b")
        for bad in ["im/send/", "im/send/a/b", "im/send/#", "im/inbox/#", "im/other/x", "im/send", "IM/send/x",
            "im/send/\u{301}x", "/im/send/x", "im/send/..",
        ] {
            #expect(IMTopic(bad) == nil, "\(bad)")
        }
        #expect(IMTopic.inboxFilter == "im/inbox/#")
    }

    @Test func errorNamesAndReasonCodesFollowSectionTwo() {
        #expect(IMErrorName.all.map(\.rawValue) == [
            "token-incorrect", "token-expired", "user-blocked", "user-abandoned", "app-blocked",
            "app-unknown", "kicked", "other-device-login", "other-device-online",
        ])
        #expect(IMErrorName(rawValue: "future-thing").rawValue == "future-thing")
        #expect(IMErrorName.tokenExpired.connackReasonCode == 0x86)
        #expect(IMErrorName.userBlocked.connackReasonCode == 0x8A)
        #expect(IMErrorName.userBlocked.disconnectReasonCode == 0x98)
        #expect(IMErrorName.otherDeviceOnline.connackReasonCode == 0x87)
        #expect(IMErrorName.otherDeviceLogin.disconnectReasonCode == 0x8E)
        #expect(IMErrorName.otherDeviceLogin.connackReasonCode == nil)
        #expect(IMErrorName.kicked.connackReasonCode == nil)
    }

    @Test func platformsAndPropertyNames() {
        #expect(Platform.allCases.map(\.rawValue) == ["mobile", "pc", "web"])
        #expect(Platform(rawValue: "tv") == nil)
        #expect(Platform.default == .mobile)
        #expect([IMUserProperty.platform, IMUserProperty.reconnect, IMUserProperty.kickEnable, IMUserProperty.userID,
            IMUserProperty.error, IMUserProperty.messageUID, IMUserProperty.sentAt] == [
            "im-platform", "im-reconnect", "im-kick-enable", "im-user-id", "im-error", "im-msg-uid", "im-sent-at",
        ])
    }
}
