import IMJSON

extension Timeline {
    /// The lanes, spans, marks and links as JSON (the shell's `--json` output).
    public var json: [(String, JSONValue)] {
        [
            ("start", .integer(start)), ("end", .integer(end)),
            ("lanes", .array(lanes.map { lane in
                .object(JSONObject([
                    ("account", .string(lane.name)), ("userId", lane.userID.map { .string($0) } ?? .null),
                    ("spans", .array(lane.spans.map { span in
                        .object(JSONObject([
                            ("kind", .string(span.kind.rawValue)), ("status", .integer(Int64(span.status.rawValue))),
                            ("statusName", .string(span.status.name)),
                            ("code", span.code.map { .integer(Int64($0.rawValue)) } ?? .null), ("detail", .string(span.detail)),
                            ("start", .integer(span.start)), ("end", .integer(span.end)), ("attempts", .integer(Int64(span.attempts))),
                        ]))
                    })),
                    ("marks", .array(lane.marks.map { mark in
                        .object(JSONObject([
                            ("kind", .string(mark.kind.rawValue)), ("at", .integer(mark.at)),
                            ("status", .integer(Int64(mark.status.rawValue))),
                            ("code", mark.code.map { .integer(Int64($0.rawValue)) } ?? .null), ("detail", .string(mark.detail)),
                        ]))
                    })),
                ]))
            })),
            ("links", .array(links.map { link in
                .object(JSONObject([
                    ("from", .string(lanes[link.from].name)), ("to", .string(lanes[link.to].name)),
                    ("connectedAt", .integer(link.connectedAt)), ("kickedAt", .integer(link.kickedAt)),
                ]))
            })),
        ]
    }
}
