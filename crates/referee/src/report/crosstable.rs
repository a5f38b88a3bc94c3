//! The standings of a tournament (ratings, points, score) and its crosstable (what each engine
//! scored against each other), as text for people and as a JSON value.

use serde::Serialize;

use crate::report::ratings::{Ratings, Zero, rate};
use crate::report::results::ResultTable;

/// One engine's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Place in the ranking, from 1.
    pub rank: usize,
    /// The engine's index in `--engine` order.
    pub engine: usize,
    /// Its name.
    pub name: String,
    /// Its rating, when ratings could be computed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub elo: Option<f64>,
    /// Half the width of the rating's 95% interval.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<f64>,
    /// Likelihood that it is stronger than the engine ranked below it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub los_next: Option<f64>,
    /// Games played.
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Points (a draw is half a point).
    pub points: f64,
}

/// The standings and crosstable of a result table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standings {
    /// One row per engine, best first.
    pub rows: Vec<Row>,
    /// `crosstable[i][j]`: points of the engine ranked `i + 1` against the engine ranked
    /// `j + 1`, and the games they played (`None` where they did not meet).
    pub crosstable: Vec<Vec<Option<(f64, u64)>>>,
    /// Which rating is zero.
    pub zero: Zero,
    /// Whether the ratings needed virtual draws (an engine won or lost every game).
    pub prior: bool,
    /// Why there are no ratings, when there are none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_ratings: Option<String>,
}

/// Ranks the engines of `table`: by rating when the ratings exist, else by points.
pub fn standings(table: &ResultTable, zero: Zero) -> Standings {
    let k = table.len();
    let ratings: Result<Ratings, String> = if table.total_games() == 0 {
        Err("no games yet".to_string())
    } else {
        rate(table, zero).map_err(|e| e.to_string())
    };
    let order: Vec<usize> = match &ratings {
        Ok(r) => r.ranking.clone(),
        Err(_) => {
            let mut order: Vec<usize> = (0..k).collect();
            order.sort_by(|&a, &b| table.points(b).total_cmp(&table.points(a)).then(a.cmp(&b)));
            order
        }
    };
    let rows = order
        .iter()
        .enumerate()
        .map(|(place, &engine)| {
            let [wins, draws, losses] = table.wdl(engine);
            let rated = ratings.as_ref().ok();
            Row {
                rank: place + 1,
                engine,
                name: table.names[engine].clone(),
                elo: rated.map(|r| r.elo[engine]),
                error: rated.map(|r| r.error[engine]),
                los_next: rated.and_then(|r| r.los_next.get(place).copied()),
                games: wins + draws + losses,
                wins,
                draws,
                losses,
                points: table.points(engine),
            }
        })
        .collect();
    let crosstable = order
        .iter()
        .map(|&a| {
            order
                .iter()
                .map(|&b| {
                    let games = table.games_between(a, b);
                    (a != b && games > 0).then(|| (table.points_between(a, b), games))
                })
                .collect()
        })
        .collect();
    Standings {
        rows,
        crosstable,
        zero,
        prior: ratings.as_ref().is_ok_and(|r| r.prior),
        no_ratings: ratings.err(),
    }
}

/// Points with one decimal, enough for halves.
fn points(p: f64) -> String {
    format!("{p:.1}")
}

impl Standings {
    /// The width of the name column: the longest name, and at least the heading's.
    fn name_width(&self) -> usize {
        self.rows
            .iter()
            .map(|r| r.name.len())
            .max()
            .unwrap_or(0)
            .max(4)
    }

    /// The standings as a table for a terminal.
    pub fn table(&self) -> String {
        let width = self.name_width();
        let mut out = format!(
            "{:>4}  {:<width$}  {:>7}  {:>6}  {:>6}  {:>5}  {:>7}  {:>6}  {:>6}\n",
            "Rank", "Name", "Elo", "+/-", "LOS", "Games", "Points", "Score", "Draws"
        );
        for row in &self.rows {
            let elo = row.elo.map_or("-".to_string(), |e| format!("{e:+.1}"));
            let error = match (row.error, self.zero, row.engine) {
                (Some(_), Zero::First, 0) => "zero".to_string(),
                (Some(e), _, _) => format!("{e:.1}"),
                (None, _, _) => "-".to_string(),
            };
            let los = row
                .los_next
                .map_or(String::new(), |l| format!("{:.1}%", 100.0 * l));
            let share = |x: f64| {
                if row.games == 0 {
                    "-".to_string()
                } else {
                    format!("{:.1}%", 100.0 * x / row.games as f64)
                }
            };
            out += &format!(
                "{:>4}  {:<width$}  {:>7}  {:>6}  {:>6}  {:>5}  {:>7}  {:>6}  {:>6}\n",
                row.rank,
                row.name,
                elo,
                error,
                los,
                row.games,
                points(row.points),
                share(row.points),
                share(row.draws as f64),
            );
        }
        if let Some(why) = &self.no_ratings {
            out += &format!("({why})\n");
        } else {
            let zero = match self.zero {
                Zero::First => format!("{} is rated 0", self.rows_by_engine(0).name),
                Zero::Average => "the average is 0".to_string(),
            };
            let prior = if self.prior {
                "; one virtual draw added to each pairing, since an engine won or lost every game"
            } else {
                ""
            };
            out += &format!(
                "(logistic Elo by maximum likelihood, draws as half a win, 95% intervals; {zero}; LOS: of each engine over the next{prior})\n"
            );
        }
        out
    }

    fn rows_by_engine(&self, engine: usize) -> &Row {
        self.rows
            .iter()
            .find(|r| r.engine == engine)
            .expect("every engine has a row")
    }

    /// The crosstable: the points of each engine (rows, best first) against each other
    /// (columns, by rank number), as `points/games`.
    pub fn crosstable_text(&self) -> String {
        let name_width = self.name_width();
        let cells: Vec<Vec<String>> = self
            .crosstable
            .iter()
            .enumerate()
            .map(|(i, line)| {
                line.iter()
                    .enumerate()
                    .map(|(j, cell)| match cell {
                        _ if i == j => "-".to_string(),
                        Some((p, g)) => format!("{}/{g}", points(*p)),
                        None => ".".to_string(),
                    })
                    .collect()
            })
            .collect();
        let width = cells
            .iter()
            .flatten()
            .map(String::len)
            .max()
            .unwrap_or(1)
            .max(3);
        let mut out = format!("{:>3}  {:<name_width$}", "", "");
        for rank in 1..=self.rows.len() {
            out += &format!("  {rank:>width$}");
        }
        out += "\n";
        for (row, line) in self.rows.iter().zip(&cells) {
            out += &format!("{:>3}  {:<name_width$}", row.rank, row.name);
            for cell in line {
                out += &format!("  {cell:>width$}");
            }
            out += "\n";
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::stats::GameResult;

    fn table() -> ResultTable {
        let mut t = ResultTable::new(vec!["weak".into(), "strong".into(), "middle".into()]);
        let mut add = |a, b, w, d, l| {
            for (n, r) in [
                (w, GameResult::Win),
                (d, GameResult::Draw),
                (l, GameResult::Loss),
            ] {
                for _ in 0..n {
                    t.add(a, b, r);
                }
            }
        };
        add(1, 0, 6, 2, 2);
        add(1, 2, 4, 4, 2);
        add(2, 0, 5, 3, 2);
        t
    }

    #[test]
    fn engines_are_ranked_by_rating_with_their_counts() {
        let s = standings(&table(), Zero::First);
        let names: Vec<&str> = s.rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["strong", "middle", "weak"]);
        let strong = &s.rows[0];
        assert_eq!(
            (strong.games, strong.wins, strong.draws, strong.losses),
            (20, 10, 6, 4)
        );
        assert_eq!(strong.points, 13.0);
        assert_eq!(s.rows[2].elo, Some(0.0));
        assert!(s.rows[0].los_next.unwrap() > 0.5);
        assert_eq!(s.rows[2].los_next, None);
        // strong against weak: 6 wins and 2 draws of 10.
        assert_eq!(s.crosstable[0][2], Some((7.0, 10)));
        assert_eq!(s.crosstable[2][0], Some((3.0, 10)));
        assert_eq!(s.crosstable[1][1], None);
    }

    #[test]
    fn the_text_tables_show_every_engine() {
        let s = standings(&table(), Zero::First);
        let text = s.table();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5, "{text}");
        assert!(lines[1].starts_with("   1  strong"), "{text}");
        assert!(lines[3].contains("zero"), "{text}");
        assert!(
            lines[1].contains("13.0") && lines[1].contains("65.0%"),
            "{text}"
        );
        assert!(lines[4].contains("weak is rated 0"), "{text}");
        let cross = s.crosstable_text();
        let expected = [
            "                  1       2       3",
            "  1  strong       -  6.0/10  7.0/10",
            "  2  middle  4.0/10       -  6.5/10",
            "  3  weak    3.0/10  3.5/10       -",
        ];
        assert_eq!(cross.lines().collect::<Vec<_>>(), expected);
    }

    #[test]
    fn without_games_the_engines_are_listed_by_points() {
        let t = ResultTable::new(vec!["a".into(), "b".into()]);
        let s = standings(&t, Zero::Average);
        assert_eq!(s.no_ratings.as_deref(), Some("no games yet"));
        assert!(s.rows.iter().all(|r| r.elo.is_none()));
        assert!(s.table().contains("(no games yet)"));
        assert_eq!(
            s.crosstable_text().lines().nth(1).unwrap().trim_end(),
            "  1  a       -    ."
        );
    }

    #[test]
    fn standings_serialize() {
        let s = standings(&table(), Zero::Average);
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["rows"][0]["name"], "strong");
        assert_eq!(json["crosstable"][0][2], serde_json::json!([7.0, 10]));
        assert_eq!(json["zero"], "average");
        assert!(json.get("no_ratings").is_none());
    }
}
