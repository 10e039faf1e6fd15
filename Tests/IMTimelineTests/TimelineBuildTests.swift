import IMEngine
@testable import IMTimeline
import Testing

@Suite struct TimelineBuildTests {
    typealias Log = RecordedLogs

    func kinds(_ lane: TimelineLane) -> [SpanKind] { lane.spans.map(\.kind) }

    @Test func spansFollowTheLogAndTheLastRunsToTheEnd() {
        let timeline = Log.timeline
        #expect(timeline.start == Log.base && timeline.end == Log.until)
        #expect(kinds(timeline.lanes[0]) == [.connecting, .connected, .kicked])
        #expect(timeline.lanes[0].spans.map(\.start) == [Log.at(0), Log.at(1), Log.at(10)])
        #expect(timeline.lanes[0].spans.map(\.end) == [Log.at(1), Log.at(10), Log.until])
        #expect(kinds(timeline.lanes[1]) == [.connecting, .connected, .networkUnavailable, .connecting, .connected, .suspended, .connecting, .connected])
        #expect(kinds(timeline.lanes[2]) == [.connecting, .connected, .ended, .connecting, .connected, .ended])
        #expect(timeline.lanes[2].spans[2].status == .disconnException && timeline.lanes[2].spans[2].code == .userBlocked)
        #expect(timeline.lanes[2].spans[5].status == .signOut && timeline.lanes[2].spans[5].code == nil)
        #expect(timeline.spanCount == 17)
    }

    @Test func everyAttemptIsMarkedAndCounted() {
        let tablet = Log.timeline.lanes[1]
        let retry = tablet.spans[3]
        #expect(retry.kind == .connecting && retry.attempts == 3 && retry.start == Log.at(35) && retry.end == Log.at(40))
        let attempts = tablet.marks.filter { $0.kind == .attempt }.map(\.at)
        #expect(attempts == [Log.at(9), Log.at(35), Log.at(36), Log.at(38), Log.at(55)])
        #expect(tablet.marks.first { $0.at == Log.at(36) }?.detail == "attempt failed: connection refused")
        #expect(Log.timeline.lanes[2].spans[0].attempts == 2)
    }

    @Test func kicksAndErrorsAreMarkedWithTheirCodes() {
        let events = Log.timeline.events
        #expect(events.map(\.lane) == [0, 2])
        #expect(events[0].mark.kind == .kick && events[0].mark.code == .kickedByOtherClient && events[0].mark.at == Log.at(10))
        #expect(events[1].mark.kind == .error && events[1].mark.code == .userBlocked && events[1].mark.label == "error 31009")
    }

    @Test func aKickIsLinkedToTheOtherDeviceOfTheUserThatConnectedThen() {
        let timeline = Log.timeline
        #expect(timeline.links == [TimelineLink(from: 1, to: 0, connectedAt: Log.at(9.99), kickedAt: Log.at(10))])
        // Without the kicking device shown, or with another user's device only, there is no link.
        #expect(Timeline([Log.alicePhone, Log.bobPhone], since: nil, until: Log.until).links.isEmpty)
        var stranger = Log.aliceTablet
        stranger.userID = "carol"
        #expect(Timeline([Log.alicePhone, stranger], since: nil, until: Log.until).links.isEmpty)
    }

    @Test func theNearestConnectionIsFoundByHalves() {
        #expect(Timeline.nearest(to: 50, in: []) == nil)
        #expect(Timeline.nearest(to: 50, in: [10]) == 10)
        #expect(Timeline.nearest(to: 50, in: [10, 48, 53, 90]) == 48)
        #expect(Timeline.nearest(to: 52, in: [10, 48, 53, 90]) == 53)
        #expect(Timeline.nearest(to: 100, in: [10, 48, 53, 90]) == 90)
        #expect(Timeline.nearest(to: 0, in: [10, 48]) == 10)
    }

    @Test func aKickFarFromAnyConnectionIsNotLinked() {
        var late = Log.aliceTablet
        late.entries = late.entries.map { var entry = $0; entry.at += 6_000; return entry }
        #expect(Timeline([Log.alicePhone, late], since: nil, until: Log.until).links.isEmpty)
    }

    @Test func theWindowCutsSpansAndDropsMarksOutsideIt() {
        let timeline = Timeline([Log.alicePhone, Log.bobPhone], since: Log.at(15), until: Log.at(45))
        #expect(timeline.start == Log.at(15) && timeline.end == Log.at(45))
        // The status at the window's start comes from the last entry before it.
        #expect(kinds(timeline.lanes[0]) == [.kicked])
        #expect(timeline.lanes[0].spans[0].start == Log.at(15) && timeline.lanes[0].spans[0].end == Log.at(45))
        #expect(timeline.lanes[0].marks.isEmpty)
        #expect(kinds(timeline.lanes[1]) == [.connected, .ended, .connecting, .connected])
        #expect(timeline.lanes[1].spans.last?.end == Log.at(45))
        #expect(timeline.lanes[1].marks.map(\.at) == [Log.at(20), Log.at(40)])
    }

    @Test func anAccountWithoutEntriesIsAnEmptyLane() {
        let timeline = Timeline([LaneSource(name: "new", userID: nil, entries: [])], since: nil, until: Log.until)
        #expect(timeline.lanes.count == 1 && timeline.lanes[0].spans.isEmpty && timeline.end > timeline.start)
    }

    @Test func untilAndSinceAreParsed() {
        #expect(TimelineInstant.milliseconds(parsingDuration: "90s") == 90_000)
        #expect(TimelineInstant.milliseconds(parsingDuration: "10m") == 600_000)
        #expect(TimelineInstant.milliseconds(parsingDuration: "1.5h") == 5_400_000)
        #expect(TimelineInstant.milliseconds(parsingDuration: "2d") == 172_800_000)
        #expect(TimelineInstant.milliseconds(parsingDuration: "250ms") == 250)
        #expect(TimelineInstant.milliseconds(parsingDuration: "30") == 30_000)
        for bad in ["", "m", "-5m", "0", "5x", "+5m", "nan", "inf"] {
            #expect(TimelineInstant.milliseconds(parsingDuration: bad) == nil, "\(bad)")
        }
        #expect(TimelineInstant(parsing: "now") == .now)
        #expect(TimelineInstant(parsing: "13:05") == .timeOfDay(hour: 13, minute: 5, second: 0))
        #expect(TimelineInstant(parsing: "2026-11-25T13:05:09") == .dateTime(year: 2026, month: 11, day: 25, hour: 13, minute: 5, second: 9))
        for bad in ["25:00", "13:5", "13:05:60", "2026-13-01T00:00", "tomorrow", "2026-11-25"] {
            #expect(TimelineInstant(parsing: bad) == nil, "\(bad)")
        }
        let now: Int64 = 1_700_000_000_123
        #expect(TimelineInstant.now.resolve(now: now) == now)
        // A time of day is today's: within a day of now, on a whole second.
        let resolved = TimelineInstant(parsing: "12:00")!.resolve(now: now)
        #expect(abs(resolved - now) < 86_400_000 && resolved % 1000 == 0)
    }
}
