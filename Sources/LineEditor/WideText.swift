import CEdit
#if canImport(Glibc)
import Glibc
#endif

/// Conversions between Swift strings and libedit's wide-character (UTF-32 on Linux) buffers.
enum WideText {
    /// A NUL-terminated copy of `text`, for el_winsertstr and el_wpush.
    static func terminated(_ text: String) -> [wchar_t] {
        text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } + [0]
    }

    static func string<Characters: Sequence<wchar_t>>(_ characters: Characters) -> String {
        var scalars = String.UnicodeScalarView()
        for character in characters {
            if let scalar = Unicode.Scalar(UInt32(bitPattern: character)) { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// Columns `scalars` take on the terminal; needs the editor thread's UTF-8 LC_CTYPE.
    static func displayWidth<Scalars: Sequence<Unicode.Scalar>>(_ scalars: Scalars) -> Int {
        scalars.reduce(0) { $0 + max(0, Int(imsh_wcwidth(wchar_t(bitPattern: $1.value)))) }
    }
}
