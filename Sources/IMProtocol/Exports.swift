// Payloads and answers are `JSONValue`s; re-exported so `import IMProtocol` is all a user of
// the contract needs.
@_exported import IMJSON
