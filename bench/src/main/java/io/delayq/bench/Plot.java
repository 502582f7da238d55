package io.delayq.bench;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * docs/bench.png, drawn with Java2D (headless): left, W2 lag per system on a log axis (box = p50 to
 * p99, whisker to p99.9, dot = max), one line per run; right, W1 drain and enqueue rates per system
 * on a log axis, one bar per run.
 */
final class Plot {
    private static final int W = 1600;
    private static final int ROW = 34;
    private static final Color[] PALETTE = {
            new Color(0x1f77b4), new Color(0x2ca02c), new Color(0xff7f0e), new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b)};
    private final Map<String, List<Row>> byName = new LinkedHashMap<>();
    private final Map<String, Color> colorBySystem = new LinkedHashMap<>();

    Plot(List<Row> rows) {
        rows.forEach(r -> byName.computeIfAbsent(r.name(), k -> new ArrayList<>()).add(r));
        rows.forEach(r -> colorBySystem.computeIfAbsent(r.system(), k -> PALETTE[colorBySystem.size() % PALETTE.length]));
    }

    void write(Path file) throws IOException {
        System.setProperty("java.awt.headless", "true");
        int top = 90;
        int rowsHeight = byName.size() * ROW * 2;
        int h = top + rowsHeight + 110;
        BufferedImage img = new BufferedImage(W, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, h);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 22));
        g.drawString("delayq vs. alternatives on one Redis (shared 2-core machine)", 20, 34);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        g.drawString("one line / bar per run; lower lag is better (left), higher throughput is better (right)", 20, 56);

        int labelW = 300;
        int lagX0 = labelW + 10;
        int lagX1 = 960;
        int barX0 = 1010;
        int barX1 = W - 30;
        Axis lag = new Axis(0.1, 10_000, lagX0, lagX1);
        Axis rate = new Axis(1_000, 10_000_000, barX0, barX1);
        int bottom = top + rowsHeight;
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString("W2 lag = handled − due (ms, log scale), 1,000 tasks/s", lagX0, top - 12);
        g.drawString("W1 tasks/s (log scale): drain ■, enqueue □", barX0, top - 12);
        grid(g, lag, top, bottom, new double[]{0.1, 1, 10, 100, 1_000, 10_000}, new String[]{"0.1", "1", "10", "100", "1 s", "10 s"});
        grid(g, rate, top, bottom, new double[]{1_000, 10_000, 100_000, 1_000_000, 10_000_000}, new String[]{"1k", "10k", "100k", "1M", "10M"});
        target(g, lag.x(5), top, bottom, "delayq p99 target 5 ms");
        target(g, rate.x(100_000), top, bottom, "delayq target 100k/s");

        int y = top;
        for (Map.Entry<String, List<Row>> e : byName.entrySet()) {
            List<Row> rs = e.getValue();
            Color color = colorBySystem.get(rs.get(0).system());
            g.setColor(new Color(0, 0, 0, 12));
            if (((y - top) / (ROW * 2)) % 2 == 0) {
                g.fillRect(0, y, W, ROW * 2);
            }
            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 15));
            g.drawString(e.getKey(), 14, y + ROW + 5);
            int slot = (ROW * 2 - 8) / Math.max(1, rs.size());
            for (int i = 0; i < rs.size(); i++) {
                Row r = rs.get(i);
                int cy = y + 4 + slot * i + slot / 2;
                lagMarks(g, lag, r.w2(), cy, Math.max(6, slot - 10), color);
                bars(g, rate, r.w1(), cy, Math.max(6, slot - 8), color);
            }
            y += ROW * 2;
        }
        legend(g, lagX0, bottom + 62);
        g.dispose();
        ImageIO.write(img, "png", file.toFile());
    }

    private void grid(Graphics2D g, Axis a, int top, int bottom, double[] ticks, String[] labels) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        for (int i = 0; i < ticks.length; i++) {
            int x = a.x(ticks[i]);
            g.setColor(new Color(0xdddddd));
            g.draw(new Line2D.Double(x, top, x, bottom));
            g.setColor(Color.DARK_GRAY);
            g.drawString(labels[i], x - g.getFontMetrics().stringWidth(labels[i]) / 2, bottom + 18);
        }
        g.setColor(Color.GRAY);
        g.draw(new Line2D.Double(a.x0, bottom, a.x1, bottom));
    }

    private static void target(Graphics2D g, int x, int top, int bottom, String label) {
        g.setColor(new Color(0xcc0000));
        g.setStroke(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[]{6f, 4f}, 0f));
        g.draw(new Line2D.Double(x, top, x, bottom));
        g.setStroke(new BasicStroke(1f));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.drawString(label, x - g.getFontMetrics().stringWidth(label) / 2, bottom + 34);
    }

    private static void lagMarks(Graphics2D g, Axis a, Results.W2 w2, int cy, int height, Color color) {
        if (w2.sortedLagMicros().length == 0) {
            return;
        }
        int p50 = a.x(w2.lagMillis(0.5));
        int p99 = a.x(w2.lagMillis(0.99));
        int p999 = a.x(w2.lagMillis(0.999));
        int max = a.x(w2.maxLagMillis());
        g.setColor(color);
        g.setStroke(new BasicStroke(2f));
        g.draw(new Line2D.Double(p99, cy, p999, cy));
        g.draw(new Line2D.Double(p999, cy - height / 3.0, p999, cy + height / 3.0));
        g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[]{3f, 3f}, 0f));
        g.draw(new Line2D.Double(p999, cy, max, cy));
        g.setStroke(new BasicStroke(1f));
        g.fill(new Rectangle2D.Double(p50, cy - height / 2.0, Math.max(2, p99 - p50), height));
        g.setColor(Color.BLACK);
        g.draw(new Line2D.Double(p50, cy - height / 2.0, p50, cy + height / 2.0));
        g.fill(new Ellipse2D.Double(max - 3, cy - 3, 6, 6));
        if (w2.lost() > 0) {
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            g.drawString(String.format("%,d lost", w2.lost()), max + 8, cy + 4);
        }
    }

    private static void bars(Graphics2D g, Axis a, Results.W1 w1, int cy, int height, Color color) {
        int drain = a.x(w1.drainPerSecond());
        int enqueue = a.x(w1.enqueuePerSecond());
        g.setColor(color);
        g.fill(new Rectangle2D.Double(a.x0, cy - height / 2.0, Math.max(1, drain - a.x0), height));
        g.setColor(Color.BLACK);
        g.draw(new Rectangle2D.Double(a.x0, cy - height / 2.0, Math.max(1, enqueue - a.x0), height));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        String label = Report.rate(w1.drainPerSecond()) + " / " + Report.rate(w1.enqueuePerSecond());
        int lx = Math.max(drain, enqueue) + 6;
        if (lx + g.getFontMetrics().stringWidth(label) > W - 4) {
            lx = a.x0 + 6;
            g.setColor(Color.WHITE);
        }
        g.drawString(label, lx, cy + 4);
    }

    private static void legend(Graphics2D g, int x, int y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        g.setColor(Color.GRAY);
        g.fill(new Rectangle2D.Double(x, y - 10, 40, 12));
        g.setColor(Color.BLACK);
        g.draw(new Line2D.Double(x, y - 10, x, y + 2));
        g.drawString("box: p50 (black edge) to p99;  whisker: to p99.9;  dashed to ● max.   Bars: drain rate (filled) / enqueue rate (outline), labels drain / enqueue.",
                x + 50, y);
    }

    /** A log-scale axis from {@code min} to {@code max} mapped onto pixels x0..x1 (values outside are clamped). */
    private record Axis(double min, double max, int x0, int x1) {
        int x(double v) {
            double c = Math.max(min, Math.min(max, v));
            return (int) Math.round(x0 + (Math.log10(c) - Math.log10(min)) / (Math.log10(max) - Math.log10(min)) * (x1 - x0));
        }
    }
}
