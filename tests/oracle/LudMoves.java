// zogkit's batch driver for the Ludii oracle (../shared/tools/ludii): for each .lud path read from
// standard input, one JSON line on standard output with whether Ludii compiles it, its first
// error, and the legal moves of the start position as [from site, to site, piece]. It runs in the
// oracle's own JVM (class path: the oracle's jars) so that hundreds of files cost one start.
// Compiled at test time by tests/it/ludii_writer.rs and `cargo xtask lud-writer`; it contains no
// Ludii code and only calls the oracle harness's compile function and Ludii's public API.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

public class LudMoves {
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

    static String one(String path) throws Exception {
        game.Game g = LudiiOracle.compile(path);
        if (g == null) throw new Exception("compiler returned null");
        other.context.Context ctx = new other.context.Context(g, new other.trial.Trial(g));
        g.start(ctx);
        StringBuilder out = new StringBuilder();
        out.append("\"moves\":[");
        boolean first = true;
        for (other.move.Move m : g.moves(ctx).moves()) {
            int what = LudiiOracle.whatOfMove(ctx, m);
            String name = what > 0 && what < g.equipment().components().length
                ? g.equipment().components()[what].getNameWithoutNumber() : "";
            if (!first) out.append(',');
            first = false;
            out.append('[').append(m.from()).append(',').append(m.to()).append(',').append(q(name)).append(']');
        }
        out.append("],\"mover\":").append(ctx.state().mover());
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
                body = "\"compile\":true," + f.get((long) (timeout * 1000), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                f.cancel(true);
                ex.shutdownNow();
                ex = Executors.newSingleThreadExecutor(r -> { Thread t = new Thread(null, r, "lud", 1 << 26); t.setDaemon(true); return t; });
                body = "\"compile\":null,\"error\":\"timeout\"";
            } catch (java.util.concurrent.ExecutionException e) {
                Throwable c = e.getCause();
                Throwable deep = c;
                while (deep.getCause() != null && deep.getCause() != deep) deep = deep.getCause();
                boolean compiled = !(c.getClass().getName().startsWith("compiler.") || c.getClass().getName().startsWith("main.grammar") || String.valueOf(c.getMessage()).startsWith("compiler returned null"));
                body = "\"compile\":" + (compiled ? "true" : "false") + ",\"error\":" + q(LudiiOracle.errorMessage(c) + (deep != c && deep.getMessage() != null ? " / cause: " + deep.getClass().getSimpleName() + ": " + deep.getMessage() : ""));
            }
            LudiiOracle.OUT.println("{\"file\":" + q(path) + "," + body + "}");
            LudiiOracle.OUT.flush();
        }
        LudiiOracle.OUT.flush();
        System.exit(0);
    }
}
