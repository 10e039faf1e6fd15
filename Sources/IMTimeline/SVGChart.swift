/// Small self-contained SVG charts for reports: bars (a distribution, counts by code) and
/// lines over time (several series sharing one axis).
///
/// Bars are `rect.bar` and points `circle.point`, each with a `data-tip` the HTML page shows
/// on hover and a `title`; the chart is an `svg.chart` whose `data-chart` names it.
public struct SVGChart: Sendable {
    /// One series of a line chart; a nil value leaves a gap.
    public struct Series: Sendable {
        public var name: String
        public var color: String
        public var values: [Double?]

        public init(name: String, color: String, values: [Double?]) {
            self.name = name
            self.color = color
            self.values = values
        }
    }

    public var id: String
    public var title: String
    public var width = 720.0
    public var height = 260.0

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    static let left = 64.0, right = 16.0, top = 34.0, bottom = 48.0

    var plotWidth: Double { width - Self.left - Self.right }
    var plotHeight: Double { height - Self.top - Self.bottom }

    /// One bar per label, heights from `values`; `unit` follows each value in its tip.
    public func bars(labels: [String], values: [Double], xTitle: String, yTitle: String, unit: String = "") -> String {
        var out = head(yMax: values.max() ?? 0, xTitle: xTitle, yTitle: yTitle)
        let top = Self.niceCeiling(values.max() ?? 0)
        let slot = plotWidth / Double(max(1, labels.count))
        for (index, (label, value)) in zip(labels, values).enumerated() {
            let x = Self.left + slot * Double(index)
            if value > 0 {
                let barHeight = max(1, plotHeight * value / top)
                let tip = "\(label): \(Self.text(value))\(unit)"
                out += "<rect class=\"bar\" data-tip=\"\(XMLText.escaped(tip))\" x=\(q(x + slot * 0.1)) y=\(q(Self.top + plotHeight - barHeight)) "
                    + "width=\(q(max(1, slot * 0.8))) height=\(q(barHeight)) fill=\"#3b7dd8\"><title>\(XMLText.escaped(tip))</title></rect>\n"
            }
            // Every label when they fit, else about twelve of them.
            let every = max(1, labels.count / 12)
            if index % every == 0 {
                out += "<text x=\(q(x + slot / 2)) y=\(q(Self.top + plotHeight + 14)) text-anchor=\"middle\" font-size=\"10\">\(XMLText.escaped(label))</text>\n"
            }
        }
        if values.allSatisfy({ $0 <= 0 }) {
            out += "<text x=\(q(Self.left + plotWidth / 2)) y=\(q(Self.top + plotHeight / 2)) text-anchor=\"middle\" fill=\"#666\">none</text>\n"
        }
        return out + "</svg>\n"
    }

    /// Lines through `x` (seconds) for each series, with a point at every value.
    public func lines(x: [Double], series: [Series], xTitle: String, yTitle: String) -> String {
        let yMax = series.flatMap { $0.values.compactMap { $0 } }.max() ?? 0
        var out = head(yMax: yMax, xTitle: xTitle, yTitle: yTitle)
        let top = Self.niceCeiling(yMax), xMax = max(x.max() ?? 1, 0.001)
        func px(_ value: Double) -> Double { Self.left + plotWidth * value / xMax }
        func py(_ value: Double) -> Double { Self.top + plotHeight - plotHeight * value / top }
        for step in 0...4 {
            let value = xMax * Double(step) / 4
            out += "<text x=\(q(px(value))) y=\(q(Self.top + plotHeight + 14)) text-anchor=\"middle\" font-size=\"10\">\(Self.text(value))</text>\n"
        }
        for (index, line) in series.enumerated() {
            let points = zip(x, line.values).compactMap { x, y in y.map { (x, $0) } }
            out += "<polyline class=\"series\" data-series=\"\(XMLText.escaped(line.name))\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\" points=\""
                + points.map { "\(XMLText.number(px($0.0))),\(XMLText.number(py($0.1)))" }.joined(separator: " ") + "\"/>\n"
            for (x, y) in points {
                let tip = "\(line.name) at \(Self.text(x)) s: \(Self.text(y))"
                out += "<circle class=\"point\" data-tip=\"\(XMLText.escaped(tip))\" cx=\(q(px(x))) cy=\(q(py(y))) r=\"3\" fill=\"\(line.color)\"><title>\(XMLText.escaped(tip))</title></circle>\n"
            }
            let legendX = Self.left + 8 + Double(index) * 110
            out += "<rect x=\(q(legendX)) y=\"22\" width=\"10\" height=\"10\" fill=\"\(line.color)\"/><text x=\(q(legendX + 14)) y=\"31\" font-size=\"11\">\(XMLText.escaped(line.name))</text>\n"
        }
        if x.isEmpty {
            out += "<text x=\(q(Self.left + plotWidth / 2)) y=\(q(Self.top + plotHeight / 2)) text-anchor=\"middle\" fill=\"#666\">no data</text>\n"
        }
        return out + "</svg>\n"
    }

    /// The opening tag, title, axes and the y scale.
    private func head(yMax: Double, xTitle: String, yTitle: String) -> String {
        let top = Self.niceCeiling(yMax)
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"\(XMLText.escaped(id))\" width=\(q(width)) height=\(q(height)) "
            + "viewBox=\"0 0 \(XMLText.number(width)) \(XMLText.number(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<rect x=\"0\" y=\"0\" width=\(q(width)) height=\(q(height)) fill=\"#ffffff\"/>\n"
        out += "<text x=\(q(Self.left)) y=\"14\" font-weight=\"bold\">\(XMLText.escaped(title))</text>\n"
        for step in 0...4 {
            let value = top * Double(step) / 4, y = Self.top + plotHeight - plotHeight * Double(step) / 4
            out += "<line x1=\(q(Self.left)) x2=\(q(Self.left + plotWidth)) y1=\(q(y)) y2=\(q(y)) stroke=\"#e4e6e8\"/>"
            out += "<text x=\(q(Self.left - 6)) y=\(q(y + 4)) text-anchor=\"end\" font-size=\"10\">\(Self.text(value))</text>\n"
        }
        out += "<line x1=\(q(Self.left)) x2=\(q(Self.left)) y1=\(q(Self.top)) y2=\(q(Self.top + plotHeight)) stroke=\"#444\"/>"
        out += "<line x1=\(q(Self.left)) x2=\(q(Self.left + plotWidth)) y1=\(q(Self.top + plotHeight)) y2=\(q(Self.top + plotHeight)) stroke=\"#444\"/>\n"
        out += "<text x=\(q(Self.left + plotWidth / 2)) y=\(q(height - 8)) text-anchor=\"middle\">\(XMLText.escaped(xTitle))</text>\n"
        out += "<text transform=\"translate(14,\(XMLText.number(Self.top + plotHeight / 2))) rotate(-90)\" text-anchor=\"middle\">\(XMLText.escaped(yTitle))</text>\n"
        return out
    }

    /// The smallest 1, 2 or 5 times a power of ten at or above `value` (1 for nothing).
    public static func niceCeiling(_ value: Double) -> Double {
        guard value > 0 else { return 1 }
        var magnitude = 1.0
        while magnitude * 10 <= value { magnitude *= 10 }
        while magnitude > value { magnitude /= 10 }
        for factor in [1.0, 2, 5, 10] where magnitude * factor >= value { return magnitude * factor }
        return magnitude * 10
    }

    /// A number for people: whole when it is, else up to three significant decimals.
    public static func text(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        let digits = abs(value) >= 100 ? 1 : abs(value) >= 1 ? 2 : 3
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        return String((value * scale).rounded() / scale)
    }

    private func q(_ value: Double) -> String { "\"\(XMLText.number(value))\"" }
}
