import Foundation
import IMProcess

/// The distinct colours of a PNG file, decoded by Python's standard library (zlib), which is
/// on every machine the tests run on (scripts/bootstrap needs python3 too).
public enum PNGColors {
    /// Each colour as 0xRRGGBB (alpha ignored). 8-bit RGB and RGBA, non-interlaced: what Chromium writes.
    public static func colors(of path: String) throws -> Set<UInt32> {
        let output = try ChildProcess.run(
            "/usr/bin/env", ["python3", "-c", script, path], environment: ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
            timeout: .seconds(60))
        let text = String(decoding: output.stdout, as: UTF8.self)
        guard case .exited(0) = output.termination else {
            throw HeadlessChromium.Failure("cannot decode \(path): \(String(decoding: output.stderr, as: UTF8.self))")
        }
        return Set(text.split(separator: "\n").compactMap { UInt32($0, radix: 16) })
    }

    static let script = """
        import struct, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n', 'not a PNG'
        pos, idat = 8, b''
        while pos < len(data):
            length, kind = struct.unpack('>I4s', data[pos:pos + 8])
            body = data[pos + 8:pos + 8 + length]
            if kind == b'IHDR':
                width, height, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            elif kind == b'IDAT':
                idat += body
            pos += 12 + length
        assert depth == 8 and ctype in (2, 6) and interlace == 0, 'unsupported PNG %d %d %d' % (depth, ctype, interlace)
        bpp = 3 if ctype == 2 else 4
        raw, stride = zlib.decompress(idat), width * bpp
        def unfilter(kind, line, previous, bpp):
            for i in range(len(line)):
                a = line[i - bpp] if i >= bpp else 0
                b = previous[i]
                c = previous[i - bpp] if i >= bpp else 0
                if kind == 1: line[i] = (line[i] + a) & 255
                elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
                elif kind == 4:
                    p = a + b - c
                    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        previous, colors, offset = bytearray(stride), set(), 0
        for _ in range(height):
            kind, line = raw[offset], bytearray(raw[offset + 1:offset + 1 + stride])
            offset += 1 + stride
            if kind == 2:
                line = bytearray((x + y) & 255 for x, y in zip(line, previous))
            elif kind != 0:
                unfilter(kind, line, previous, bpp)
            colors.update(zip(line[0::bpp], line[1::bpp], line[2::bpp]))
            previous = line
        print('\\n'.join('%02x%02x%02x' % color for color in colors))
        """
}
