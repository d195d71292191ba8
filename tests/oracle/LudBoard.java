// zogkit's board driver for the Ludii oracle (../shared/tools/ludii): for each .lud path read from
// standard input, one JSON line on standard output with the board's default site type and, per
// site of that type in Ludii's index order, its label, its centre and the indexes of its
// orthogonal, diagonal and adjacent neighbours (Ludii's `Orthogonal`, `Diagonal` and
// `Adjacent` relations). The oracle's
// `facts` give only counts; this gives the adjacency. It runs in the oracle's own JVM (class path:
// the oracle's jars) so that the whole library costs one start. Compiled at test time by
// tests/it/common/ludii_facts.rs (`cargo xtask ludii`, the library sample test); it contains no
// Ludii code and only calls the oracle harness's compile function and Ludii's public API.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

public class LudBoard {
    static String q(String s) {
        if (s == null) return "null";
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }

    static void indexes(StringBuilder out, List<? extends other.topology.TopologyElement> l) {
        out.append('[');
        for (int i = 0; i < l.size(); i++) {
            if (i > 0) out.append(',');
            out.append(l.get(i).index());
        }
        out.append(']');
    }

    static String one(String path) throws Exception {
        game.Game g = LudiiOracle.compile(path);
        if (g == null) throw new Exception("compiler returned null");
        // A match describes its first game, as the oracle's facts do.
        if (g.board() == null && g instanceof game.match.Match) {
            game.match.Subgame[] subs = ((game.match.Match) g).instances();
            if (subs.length > 0 && subs[0].getGame() != null) g = subs[0].getGame();
        }
        game.types.board.SiteType type = g.board().defaultSite();
        other.topology.Topology t = g.board().topology();
        List<? extends other.topology.TopologyElement> els = t.getGraphElements(type);
        StringBuilder out = new StringBuilder();
        out.append("\"type\":").append(q(type.name())).append(",\"sites\":[");
        for (int i = 0; i < els.size(); i++) {
            other.topology.TopologyElement e = els.get(i);
            if (i > 0) out.append(',');
            out.append("{\"label\":").append(q(e.label()));
            out.append(",\"x\":").append(String.format(java.util.Locale.ROOT, "%.4f", e.centroid().getX()));
            out.append(",\"y\":").append(String.format(java.util.Locale.ROOT, "%.4f", e.centroid().getY()));
            out.append(",\"orth\":");
            indexes(out, e.orthogonal());
            out.append(",\"diag\":");
            indexes(out, e.diagonal());
            out.append(",\"adj\":");
            indexes(out, e.adjacent());
            out.append('}');
        }
        out.append(']');
        return out.toString();
    }

    public static void main(String[] args) throws Exception {
        double timeout = args.length > 0 ? Double.parseDouble(args[0]) : 30;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> { Thread t = new Thread(null, r, "lud", 1 << 26); t.setDaemon(true); return t; });
        String line;
        while ((line = in.readLine()) != null) {
            final String path = line.trim();
            if (path.isEmpty()) continue;
            String body;
            Future<String> f = ex.submit(() -> one(path));
            try {
                body = "\"ok\":true," + f.get((long) (timeout * 1000), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                f.cancel(true);
                ex.shutdownNow();
                ex = Executors.newSingleThreadExecutor(r -> { Thread t = new Thread(null, r, "lud", 1 << 26); t.setDaemon(true); return t; });
                body = "\"ok\":false,\"error\":\"timeout\"";
            } catch (java.util.concurrent.ExecutionException e) {
                body = "\"ok\":false,\"error\":" + q(LudiiOracle.errorMessage(e.getCause()));
            }
            LudiiOracle.OUT.println("{\"file\":" + q(path) + "," + body + "}");
            LudiiOracle.OUT.flush();
        }
        LudiiOracle.OUT.flush();
        System.exit(0);
    }
}
