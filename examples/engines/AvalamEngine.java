import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * An Avalam engine in one Java file: a board, a bot interface, three bots (random, greedy, and a
 * shallow alpha-beta), and the few lines of pion's protocol that referee and pion-web need.
 *
 * <pre>
 *   javac -d build examples/engines/AvalamEngine.java
 *   java -cp build AvalamEngine            (the alpha-beta bot; --bot greedy or --bot random)
 * </pre>
 *
 * To play your own bot, implement {@link Bot} (it gets a copy of the board and a time budget and
 * returns a move) and add it to {@link #makeBot}: nothing else changes. docs/writing-an-engine.md
 * shows it step by step.
 */
public class AvalamEngine {

    /** A move: the tower on (fromRow, fromCol) goes onto the tower on (toRow, toCol). */
    static final class Move {
        final int fromRow, fromCol, toRow, toCol;

        Move(int fromRow, int fromCol, int toRow, int toCol) {
            this.fromRow = fromRow;
            this.fromCol = fromCol;
            this.toRow = toRow;
            this.toCol = toCol;
        }

        /** pion's notation: source then destination cell, columns a..i, rows 1..9 ("e4e5"). */
        @Override
        public String toString() {
            return "" + (char) ('a' + fromCol) + (fromRow + 1) + (char) ('a' + toCol) + (toRow + 1);
        }

        static Move parse(String text) {
            if (text.length() != 4) throw new IllegalArgumentException("bad move " + text);
            return new Move(text.charAt(1) - '1', text.charAt(0) - 'a', text.charAt(3) - '1', text.charAt(2) - 'a');
        }
    }

    /**
     * The board: cells[row][col] is the height of the tower there (0: empty), positive when
     * yellow (player 1) is on top and negative for red (player 2). Row 0 is row 1 of the notation.
     */
    static final class Board {
        static final int MAX_HEIGHT = 5;
        static final String START =
            "..yr...../.yryr..../.ryryry../.yryryryr/yryr.ryry/ryryryry./..yryryr./....ryry./.....ry..";
        final int[][] cells = new int[9][9];
        int player = 1; // 1 (yellow) or 2 (red): whose turn it is
        boolean tiebreak5; // equal towers decided by towers five high (the variant tiebreak5)

        /** Reads pion's position string: rows 9 down to 1 joined by '/', then the side to move. */
        static Board parse(String board, String side) {
            Board b = new Board();
            String[] rows = board.split("/");
            if (rows.length != 9) throw new IllegalArgumentException("a board has 9 rows");
            for (int i = 0; i < 9; i++) {
                int row = 8 - i, col = 0;
                String text = rows[i];
                for (int k = 0; k < text.length(); k++, col++) {
                    char c = text.charAt(k);
                    if (c == '.') continue;
                    int height = 1;
                    if (k + 1 < text.length() && Character.isDigit(text.charAt(k + 1))) {
                        height = text.charAt(++k) - '0';
                    }
                    b.cells[row][col] = c == 'y' ? height : -height;
                }
            }
            b.player = side.equals("2") ? 2 : 1;
            return b;
        }

        Board copy() {
            Board b = new Board();
            for (int r = 0; r < 9; r++) b.cells[r] = cells[r].clone();
            b.player = player;
            b.tiebreak5 = tiebreak5;
            return b;
        }

        /** Every legal move: any tower onto a neighbouring tower, the result at most 5 high. */
        List<Move> legalMoves() {
            List<Move> moves = new ArrayList<>();
            for (int r = 0; r < 9; r++) {
                for (int c = 0; c < 9; c++) {
                    int h = Math.abs(cells[r][c]);
                    if (h == 0 || h == MAX_HEIGHT) continue;
                    for (int dr = -1; dr <= 1; dr++) {
                        for (int dc = -1; dc <= 1; dc++) {
                            int r2 = r + dr, c2 = c + dc;
                            if ((dr == 0 && dc == 0) || r2 < 0 || r2 > 8 || c2 < 0 || c2 > 8) continue;
                            int h2 = Math.abs(cells[r2][c2]);
                            if (h2 > 0 && h + h2 <= MAX_HEIGHT) moves.add(new Move(r, c, r2, c2));
                        }
                    }
                }
            }
            return moves;
        }

        /** Plays a legal move: the moved tower's top colour is on top of the new tower. */
        void play(Move m) {
            int moving = cells[m.fromRow][m.fromCol];
            int height = Math.abs(moving) + Math.abs(cells[m.toRow][m.toCol]);
            cells[m.toRow][m.toCol] = moving > 0 ? height : -height;
            cells[m.fromRow][m.fromCol] = 0;
            player = 3 - player;
        }

        boolean isGameOver() {
            return legalMoves().isEmpty();
        }

        /** Towers topped by `who` (1 or 2), the points of the game. */
        int towers(int who) {
            int n = 0;
            for (int[] row : cells) for (int h : row) if (who == 1 ? h > 0 : h < 0) n++;
            return n;
        }

        /** Towers five high topped by `who`: the tie-break of tiebreak5. */
        int fullTowers(int who) {
            int n = 0;
            for (int[] row : cells) for (int h : row) if (h == (who == 1 ? MAX_HEIGHT : -MAX_HEIGHT)) n++;
            return n;
        }

        /** The result for `who` once the game is over: +1 won, 0 draw, -1 lost. */
        int result(int who) {
            int diff = towers(who) - towers(3 - who);
            if (diff == 0 && tiebreak5) diff = fullTowers(who) - fullTowers(3 - who);
            return Integer.signum(diff);
        }
    }

    /** A bot chooses a move on a copy of the board within a time budget in milliseconds. */
    interface Bot {
        Move chooseMove(Board board, long budgetMillis);
    }

    /** Plays any legal move. */
    static final class RandomBot implements Bot {
        final Random random = new Random(1);

        public Move chooseMove(Board board, long budgetMillis) {
            List<Move> moves = board.legalMoves();
            return moves.get(random.nextInt(moves.size()));
        }
    }

    /** Plays the move that leaves the most towers of its colour minus the opponent's. */
    static final class GreedyBot implements Bot {
        public Move chooseMove(Board board, long budgetMillis) {
            int me = board.player;
            Move best = null;
            int bestScore = Integer.MIN_VALUE;
            for (Move m : board.legalMoves()) {
                Board next = board.copy();
                next.play(m);
                int score = next.towers(me) - next.towers(3 - me);
                if (score > bestScore) {
                    bestScore = score;
                    best = m;
                }
            }
            return best;
        }
    }

    /** Alpha-beta on towers, deepened one ply at a time while the budget lasts. */
    static final class AlphaBetaBot implements Bot {
        static final int WIN = 1000;
        long deadline;

        static final class OutOfTime extends RuntimeException {
            private static final long serialVersionUID = 1L;

            OutOfTime() {
                super(null, null, false, false);
            }
        }

        public Move chooseMove(Board board, long budgetMillis) {
            deadline = System.currentTimeMillis() + budgetMillis;
            List<Move> moves = board.legalMoves();
            Move best = moves.get(0);
            for (int depth = 1; depth <= 20; depth++) {
                try {
                    Move found = null;
                    int alpha = -WIN - 1;
                    for (Move m : moves) {
                        Board next = board.copy();
                        next.play(m);
                        int value = -search(next, depth - 1, -WIN - 1, -alpha);
                        if (found == null || value > alpha) {
                            alpha = value;
                            found = m;
                        }
                    }
                    best = found;
                    moves.remove(found); // the best first in the next iteration
                    moves.add(0, found);
                    if (Math.abs(alpha) >= WIN) break; // the result is proven
                } catch (OutOfTime stop) {
                    break;
                }
            }
            return best;
        }

        /** The value of the board for the player to move (negamax). */
        int search(Board board, int depth, int alpha, int beta) {
            if (System.currentTimeMillis() > deadline) throw new OutOfTime();
            List<Move> moves = board.legalMoves();
            if (moves.isEmpty()) return WIN * board.result(board.player);
            if (depth == 0) return evaluate(board);
            for (Move m : moves) {
                Board next = board.copy();
                next.play(m);
                int value = -search(next, depth - 1, -beta, -alpha);
                if (value >= beta) return value;
                alpha = Math.max(alpha, value);
            }
            return alpha;
        }

        /** Towers of the player to move minus the opponent's; towers five high count double. */
        int evaluate(Board board) {
            int me = board.player;
            return board.towers(me) - board.towers(3 - me) + board.fullTowers(me) - board.fullTowers(3 - me);
        }
    }

    static Bot makeBot(String name) {
        switch (name) {
            case "random": return new RandomBot();
            case "greedy": return new GreedyBot();
            case "alphabeta": return new AlphaBetaBot();
            default: throw new IllegalArgumentException("unknown bot " + name + " (random, greedy, alphabeta)");
        }
    }

    // ------------------------------------------------------------------ pion's protocol ---
    static final PrintStream out = new PrintStream(System.out, true); // flush every line

    public static void main(String[] args) throws IOException {
        String botName = args.length == 2 && args[0].equals("--bot") ? args[1] : "alphabeta";
        Bot bot = makeBot(botName);
        boolean tiebreak5 = false;
        Board board = Board.parse(Board.START, "1");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            switch (w[0]) {
                case "pion":
                    out.println("id name java-" + botName);
                    out.println("id author a student");
                    out.println("game avalam");
                    out.println("option name Variant type combo default standard var standard var tiebreak5");
                    out.println("pionok");
                    break;
                case "isready":
                    out.println("readyok");
                    break;
                case "setoption": // setoption name Variant value tiebreak5
                    if (w.length == 5 && w[2].equalsIgnoreCase("Variant")) {
                        if (w[4].equals("tiebreak5") || w[4].equals("standard")) tiebreak5 = w[4].equals("tiebreak5");
                        else out.println("error setoption: this engine plays standard and tiebreak5 only");
                    } else {
                        out.println("error setoption: no such option");
                    }
                    break;
                case "position": // position startpos|<board> <side> [moves m1 m2 ...]
                    int k = w[1].equals("startpos") ? 2 : (w[1].equals("fen") ? 4 : 3);
                    board = w[1].equals("startpos") ? Board.parse(Board.START, "1")
                        : Board.parse(w[k - 2], w[k - 1]);
                    for (int i = k + 1; i < w.length; i++) board.play(Move.parse(w[i]));
                    board.tiebreak5 = tiebreak5;
                    break;
                case "go":
                    out.println("bestmove " + chooseMove(bot, board, w));
                    break;
                case "quit":
                    return;
                default:
                    break; // newgame and anything else: nothing to do
            }
        }
    }

    /** Asks the bot for a move within a share of the clock `go` gives. */
    static String chooseMove(Bot bot, Board board, String[] go) {
        if (board.isGameOver()) return "none";
        long budget = 1000;
        for (int i = 1; i + 1 < go.length; i++) {
            if (go[i].equals("movetime")) budget = Long.parseLong(go[i + 1]) / 2;
            if (go[i].equals("p" + board.player + "time")) budget = Math.max(1, Long.parseLong(go[i + 1])) / 20;
        }
        return bot.chooseMove(board.copy(), budget).toString();
    }
}
