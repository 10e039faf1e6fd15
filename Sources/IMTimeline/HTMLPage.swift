/// One self-contained HTML page around inline SVG: its style and script are in the page, and
/// it loads nothing (no scripts, fonts, images or network).
///
/// The script shows an element's `data-tip` on hover and, once the page is drawn, logs one
/// console line, `imsh-page lanes=N spans=N charts=N marks=N points=N bars=N`, counting what
/// the browser actually laid out (elements whose bounding box is not empty in both directions), for the browser tests.
public struct HTMLPage: Sendable {
    public var title: String
    /// Markup placed in `body`, already escaped.
    public var body: String

    public init(title: String, body: String) {
        self.title = title
        self.body = body
    }

    public var html: String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(XMLText.escaped(title))</title>
        <link rel="icon" href="data:,">
        <style>\(Self.style)</style>
        </head>
        <body>
        <h1>\(XMLText.escaped(title))</h1>
        \(body)
        <div id="tip" hidden></div>
        <script>\(Self.script)</script>
        </body>
        </html>

        """
    }

    static let style = """
        body { font-family: sans-serif; margin: 16px; color: #202124; background: #fff; }
        h1 { font-size: 18px; } h2 { font-size: 15px; margin: 18px 0 4px; }
        svg { display: block; max-width: 100%; height: auto; }
        [data-tip]:hover { stroke: #202124; stroke-width: 1.5; }
        #tip { position: fixed; pointer-events: none; white-space: pre; background: #202124; color: #fff;
          font: 12px monospace; padding: 6px 8px; border-radius: 4px; max-width: 60em; }
        table { border-collapse: collapse; font-size: 13px; } td, th { padding: 2px 10px 2px 0; text-align: left; }
        pre { background: #f5f5f5; padding: 8px; overflow: auto; font-size: 12px; }
        pre.json { white-space: pre-wrap; word-break: break-all; }
        """

    static let script = """
        (function () {
          var tip = document.getElementById('tip');
          document.addEventListener('mousemove', function (event) {
            var target = event.target.closest ? event.target.closest('[data-tip]') : null;
            if (!target) { tip.hidden = true; return; }
            tip.textContent = target.getAttribute('data-tip');
            tip.style.left = (event.clientX + 12) + 'px';
            tip.style.top = (event.clientY + 12) + 'px';
            tip.hidden = false;
          });
          function drawn(selector) {
            var count = 0;
            document.querySelectorAll(selector).forEach(function (element) {
              var box = element.getBoundingClientRect();
              if (box.width > 0 || box.height > 0) { count += 1; }
            });
            return count;
          }
          window.addEventListener('load', function () {
            console.log('imsh-page lanes=' + drawn('svg.imsh-timeline g.lane') + ' spans=' + drawn('rect.span')
              + ' charts=' + drawn('svg.imsh-timeline, svg.chart') + ' marks=' + drawn('g.mark')
              + ' points=' + drawn('circle.point') + ' bars=' + drawn('rect.bar'));
          });
        })();
        """
}
