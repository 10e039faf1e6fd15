// Configuration readers work on `JSONNode`s and report `SourceLocation`s; re-exported so
// `import IMConfig` is all a reader of configuration files needs.
@_exported import IMJSON
