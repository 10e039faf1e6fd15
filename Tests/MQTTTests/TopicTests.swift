import MQTT
import Testing

struct TopicTests {
    @Test(arguments: ["a", "im/send/u2", "/", "a//b", "$SYS/x", " ", "ü/😀"])
    func validNames(name: String) {
        #expect(Topic.isValidName(name))
    }

    @Test(arguments: ["", "a/+", "#", "a/b#", "x\u{0}y"])
    func invalidNames(name: String) {
        #expect(throws: TopicError.self) { try Topic.validateName(name) }
        #expect(!Topic.isValidName(name))
    }

    @Test(arguments: ["#", "+", "a/#", "im/inbox/#", "+/+", "a/+/b", "/#", "a//+", "$share/g/a/#", "$share/g/#", "$sharex/#"])
    func validFilters(filter: String) throws {
        try Topic.validateFilter(filter)
    }

    @Test(arguments: ["", "a#", "a/#/b", "#/a", "a+", "a/+b", "+a/b", "$share/g", "$share//a", "$share/g/", "$share/g+/a", "$share/#/a", "a/\u{0}"])
    func invalidFilters(filter: String) {
        do {
            try Topic.validateFilter(filter)
            Issue.record("accepted \(filter)")
        } catch {
            #expect(error.reasonCode == .topicFilterInvalid)
        }
    }

    @Test func nameErrorsCarryTopicNameInvalid() {
        do {
            try Topic.validateName("a/#")
            Issue.record("accepted a wildcard")
        } catch {
            #expect(error.reasonCode == .topicNameInvalid)
            #expect(error.message.contains("wildcard"))
        }
    }

    @Test func sharedSubscriptionParts() throws {
        let shared = try #require(Topic.sharedSubscription("$share/group/im/inbox/#"))
        #expect(shared.shareName == "group")
        #expect(shared.filter == "im/inbox/#")
        #expect(Topic.sharedSubscription("im/inbox/#") == nil)
    }

    @Test(arguments: [
        ("im/inbox/#", "im/inbox/u1", true), ("im/inbox/#", "im/inbox", true), ("im/inbox/#", "im/send/u1", false),
        ("#", "a/b/c", true), ("+", "a", true), ("+", "a/b", false), ("+/+", "/x", true), ("a/+/c", "a/b/c", true),
        ("a/+/c", "a/b/d", false), ("a/b", "a/b", true), ("a/b", "a/b/c", false), ("a/b/c", "a/b", false),
        ("#", "$SYS/x", false), ("+/x", "$SYS/x", false), ("$SYS/#", "$SYS/x", true), ("a/#", "a/", true),
    ])
    func matching(filter: String, name: String, expected: Bool) {
        #expect(Topic.matches(filter: filter, name: name) == expected)
    }
}
