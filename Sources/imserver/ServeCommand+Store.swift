import IMHTTP
import IMCommandLine
import IMServer

extension ServeCommand {
    /// What --store, --node-name, --store-connections and --node-listen ask for.
    struct StoreOptions {
        /// The PostgreSQL database, or nil for the data directory's SQLite file.
        var url: String?
        var nodeName: String
        var connections: Int
        /// Where the other nodes link to this one (nil: the default, 127.0.0.1 on a free port).
        var link: HostPort?
    }

    /// Reads the store options; exits with a usage error for a bad value or a combination that
    /// means nothing (--data with --store, node options without --store).
    static func storeOptions(_ parsed: ParsedArguments) -> StoreOptions {
        do throws(UsageError) {
            let reader = OptionReader(parsed: parsed, command: "imserver")
            let location = try storeLocation(parsed)
            let url: String? = if case .postgres(let url) = location { url } else { nil }
            if url == nil, let option = ["--node-name", "--store-connections", "--node-listen"].first(where: { parsed.value($0) != nil }) {
                throw UsageError("\(option) goes with --store (the nodes of one PostgreSQL database)")
            }
            if let name = parsed.value("--node-name"), !isValidNodeName(name) {
                throw UsageError("--node-name wants 1-64 characters of A-Z a-z 0-9 . _ -, not '\(name)'")
            }
            let link = try reader.endpoint("--node-listen", listening: true)
            if let link, link.host == "0.0.0.0" || link.host == "::" {
                throw UsageError("--node-listen is written in the node's row for the others to dial: give an address they reach, not \(link.host)")
            }
            return StoreOptions(
                url: url, nodeName: parsed.value("--node-name") ?? EmbeddedServer.defaultNodeName(),
                connections: try reader.integer("--store-connections", in: 1...256) ?? 4, link: link)
        } catch {
            CommandLineTool.fail(spec, error)
        }
    }

    /// Where `--data` or `--store` (never both) says to keep the data, for the server and
    /// `imserver app` alike; the default data directory without either.
    static func storeLocation(_ parsed: ParsedArguments) throws(UsageError) -> StoreLocation {
        if parsed.value("--data") != nil && parsed.value("--store") != nil {
            throw UsageError("--data and --store name two places to keep the data: give one")
        }
        return StoreLocation(directory: parsed.value("--data") ?? SQLiteServerStore.defaultDirectory(), storeURL: parsed.value("--store"))
    }

    /// Reads --advertise (with --store only) and --drain-timeout into `options`; exits with a usage error.
    static func configureDrain(_ options: inout EmbeddedServer.Options, _ parsed: ParsedArguments, storeURL: String?) {
        do throws(UsageError) {
            let reader = OptionReader(parsed: parsed, command: "imserver")
            if let reference = try reader.endpoint("--advertise") {
                guard storeURL != nil else { throw UsageError("--advertise goes with --store (the nodes of one PostgreSQL database)") }
                options.serverReference = reference.description
            }
            if let timeout = try reader.seconds("--drain-timeout", in: 0...3600) { options.drainTimeout = timeout }
        } catch {
            CommandLineTool.fail(spec, error)
        }
    }

    static func isValidNodeName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { $0 == 0x2E || $0 == 0x5F || $0 == 0x2D || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }
}
