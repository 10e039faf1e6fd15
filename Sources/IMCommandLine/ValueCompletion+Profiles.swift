extension ValueCompletion {
    /// Profile names, as the program lists them (`--list-profiles`, honouring a `--profiles`
    /// already typed): the shell's and the bench's `--profile` complete the same way.
    public static let profileNames = ValueCompletion.program(arguments: ["--list-profiles"], forwarding: ["--profiles"])
}
