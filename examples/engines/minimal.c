/* The smallest complete engine for pion's referee, in C: Awale, greedy (the move that captures
   most). Build: cc -O2 -o minimal examples/engines/minimal.c */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char PITS[] = "ABCDEFabcdef"; /* player 1 sows A..F, player 2 a..f */

/* Sows pit (0..11) on board in place; returns the seeds the move captures. */
static int sow(int board[12], int pit) {
    int seeds = board[pit], at = pit, captured = 0;
    board[pit] = 0;
    while (seeds > 0) {
        at = (at + 1) % 12;
        if (at != pit) { /* a sowing that laps the board skips the pit it started from */
            board[at]++;
            seeds--;
        }
    }
    int low = pit < 6 ? 6 : 0; /* the opponent's row is low..low+5 */
    while (at >= low && at < low + 6 && (board[at] == 2 || board[at] == 3)) {
        captured += board[at]; /* capture 2s and 3s, backwards */
        board[at--] = 0;
    }
    return captured;
}

/* The greedy legal move of side (1 or 2): a move must leave the opponent a seed, unless none can. */
static int choose(const int board[12], int side) {
    int mine = side == 1 ? 0 : 6, theirs = 6 - mine, best = -1, best_key = -1;
    for (int feeding = 1; feeding >= 0 && best < 0; feeding--) {
        for (int p = mine; p < mine + 6; p++) {
            int after[12], left = 0;
            if (board[p] == 0) continue;
            memcpy(after, board, sizeof after);
            int key = sow(after, p) * 100 + rand() % 100; /* captures first, ties at random */
            for (int q = theirs; q < theirs + 6; q++) left += after[q];
            if ((left > 0 || !feeding) && key > best_key) best = p, best_key = key;
        }
    }
    return best;
}

int main(void) {
    char line[1 << 16];
    int board[12] = {4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4}, side = 1;
    while (fgets(line, sizeof line, stdin)) {
        char *word = strtok(line, " \t\r\n");
        if (!word) continue;
        if (!strcmp(word, "pion")) printf("id name minimal-c\ngame awale\npionok\n");
        else if (!strcmp(word, "isready")) printf("readyok\n");
        else if (!strcmp(word, "go")) printf("bestmove %c\n", PITS[choose(board, side)]);
        else if (!strcmp(word, "quit")) break;
        else if (!strcmp(word, "position")) {
            char *arg = strtok(NULL, " \t\r\n");
            if (arg && !strcmp(arg, "fen")) arg = strtok(NULL, " \t\r\n");
            if (arg && !strcmp(arg, "startpos")) {
                for (int p = 0; p < 12; p++) board[p] = 4;
                side = 1;
            } else if (arg) { /* A,..,F/a,..,f/c1,c2 <side>: the captures do not matter here */
                char *at = arg;
                for (int p = 0; p < 12; p++) board[p] = (int)strtol(at, &at, 10), at++;
                char *s = strtok(NULL, " \t\r\n");
                side = s ? atoi(s) : 1;
            }
            strtok(NULL, " \t\r\n"); /* the word "moves", if any */
            for (char *m; (m = strtok(NULL, " \t\r\n"));) {
                sow(board, (int)(strchr(PITS, m[0]) - PITS));
                side = 3 - side;
            }
        }
        fflush(stdout); /* the referee reads line by line: flush every answer */
    }
    return 0;
}
