import IMJSON
import IMProcess

extension ProcessStatus {
    /// The figures as reports and worker processes write them.
    package var json: JSONValue {
        [
            "rssKB": .integer(Int64(residentKB)), "rssAnonKB": .integer(Int64(anonymousKB)),
            "rssFileKB": .integer(Int64(fileKB)), "rssShmemKB": .integer(Int64(sharedKB)),
            "descriptors": .integer(Int64(descriptors)),
        ]
    }

    /// Reads `json`'s object back; nil when it is not one.
    package init?(json: JSONValue?) {
        guard let object = json?.objectValue, let resident = object["rssKB"]?.integerValue else { return nil }
        func field(_ name: String) -> Int { Int(object[name]?.integerValue ?? 0) }
        self.init(
            residentKB: Int(resident), anonymousKB: field("rssAnonKB"), fileKB: field("rssFileKB"),
            sharedKB: field("rssShmemKB"), descriptors: field("descriptors"))
    }

    /// Two processes' figures added up, as one figure for the processes of a run.
    static func + (left: ProcessStatus, right: ProcessStatus) -> ProcessStatus {
        ProcessStatus(
            residentKB: left.residentKB + right.residentKB, anonymousKB: left.anonymousKB + right.anonymousKB,
            fileKB: left.fileKB + right.fileKB, sharedKB: left.sharedKB + right.sharedKB,
            descriptors: left.descriptors + right.descriptors)
    }
}
