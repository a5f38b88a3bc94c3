//! The result table of a tournament: wins and draws between every two engines, from which the
//! standings, the crosstable and the ratings are all computed.

use serde::Serialize;

use crate::record::GameRecord;
use crate::report::stats::GameResult;

/// Wins and draws of every engine against every other, engines in `--engine` order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultTable {
    /// The engines' names.
    pub names: Vec<String>,
    /// `wins[i][j]`: games engine `i` won against engine `j`.
    pub wins: Vec<Vec<u64>>,
    /// `draws[i][j]` (= `draws[j][i]`): games drawn between `i` and `j`.
    pub draws: Vec<Vec<u64>>,
}

impl ResultTable {
    /// An empty table of these engines.
    pub fn new(names: Vec<String>) -> ResultTable {
        let n = names.len();
        ResultTable {
            names,
            wins: vec![vec![0; n]; n],
            draws: vec![vec![0; n]; n],
        }
    }

    /// Number of engines.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table has no engines.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Adds one game of engine `a` against engine `b`, with `result` seen from `a`.
    pub fn add(&mut self, a: usize, b: usize, result: GameResult) {
        assert!(a != b, "an engine does not play itself");
        match result {
            GameResult::Win => self.wins[a][b] += 1,
            GameResult::Loss => self.wins[b][a] += 1,
            GameResult::Draw => {
                self.draws[a][b] += 1;
                self.draws[b][a] += 1;
            }
        }
    }

    /// Games played between `a` and `b`.
    pub fn games_between(&self, a: usize, b: usize) -> u64 {
        self.wins[a][b] + self.wins[b][a] + self.draws[a][b]
    }

    /// Points `a` scored against `b` (a draw is half a point), in half-points.
    pub fn half_points_between(&self, a: usize, b: usize) -> u64 {
        2 * self.wins[a][b] + self.draws[a][b]
    }

    /// Points `a` scored against `b`.
    pub fn points_between(&self, a: usize, b: usize) -> f64 {
        self.half_points_between(a, b) as f64 / 2.0
    }

    /// Games engine `a` played in all.
    pub fn games(&self, a: usize) -> u64 {
        (0..self.len()).map(|b| self.games_between(a, b)).sum()
    }

    /// Points engine `a` scored in all.
    pub fn points(&self, a: usize) -> f64 {
        (0..self.len()).map(|b| self.points_between(a, b)).sum()
    }

    /// Engine `a`'s wins, draws and losses over all its games.
    pub fn wdl(&self, a: usize) -> [u64; 3] {
        let n = self.len();
        [
            (0..n).map(|b| self.wins[a][b]).sum(),
            (0..n).map(|b| self.draws[a][b]).sum(),
            (0..n).map(|b| self.wins[b][a]).sum(),
        ]
    }

    /// Games in the whole table.
    pub fn total_games(&self) -> u64 {
        (0..self.len()).map(|a| self.games(a)).sum::<u64>() / 2
    }

    /// Adds every game of `other`, a table of the same engines.
    pub fn merge(&mut self, other: &ResultTable) {
        assert_eq!(self.names, other.names, "tables of different engines");
        for (mine, theirs) in self.wins.iter_mut().zip(&other.wins) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
        for (mine, theirs) in self.draws.iter_mut().zip(&other.draws) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += t;
            }
        }
    }
}

impl ResultTable {
    /// Counts one game record, whose players must be among the table's names.
    pub fn add_record(&mut self, record: &GameRecord) -> Result<(), String> {
        let index = |name: &str| {
            self.names.iter().position(|n| n == name).ok_or_else(|| {
                format!(
                    "game {} was played by '{name}', who is not in this event",
                    record.game
                )
            })
        };
        let first = index(&record.first)?;
        let second = index(&record.second)?;
        let result = match record.result.as_str() {
            "1-0" => GameResult::Win,
            "0-1" => GameResult::Loss,
            "1/2-1/2" => GameResult::Draw,
            other => return Err(format!("game {}: unknown result '{other}'", record.game)),
        };
        self.add(first, second, result);
        Ok(())
    }
}

/// The table of `names` from game records, each naming its players among them.
pub fn from_records(names: &[String], records: &[GameRecord]) -> Result<ResultTable, String> {
    let mut table = ResultTable::new(names.to_vec());
    for record in records {
        table.add_record(record)?;
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::testing::record;

    #[test]
    fn games_are_counted_from_both_sides() {
        let mut t = ResultTable::new(vec!["a".into(), "b".into(), "c".into()]);
        t.add(0, 1, GameResult::Win);
        t.add(1, 0, GameResult::Win);
        t.add(0, 1, GameResult::Draw);
        t.add(2, 0, GameResult::Loss);
        assert_eq!(t.games_between(0, 1), 3);
        assert_eq!(t.games_between(1, 0), 3);
        assert_eq!(t.points_between(0, 1), 1.5);
        assert_eq!(t.points_between(1, 0), 1.5);
        assert_eq!(t.points(0), 2.5);
        assert_eq!(t.wdl(0), [2, 1, 1]);
        assert_eq!(t.wdl(2), [0, 0, 1]);
        assert_eq!(t.games(0), 4);
        assert_eq!(t.total_games(), 4);
    }

    #[test]
    fn records_fill_the_table_from_player_1_and_2() {
        let names = vec!["a".to_string(), "b".to_string(), "c".to_string()];
        let records = [
            record(0, "a", "b", "1-0"),
            record(1, "b", "a", "1-0"),
            record(2, "c", "a", "1/2-1/2"),
            record(3, "a", "c", "0-1"),
        ];
        let t = from_records(&names, &records).unwrap();
        assert_eq!(t.wdl(0), [1, 1, 2]);
        assert_eq!(t.wins[2][0], 1);
        assert_eq!(t.points_between(1, 0), 1.0);
        let stranger = [record(4, "a", "z", "1-0")];
        assert_eq!(
            from_records(&names, &stranger).unwrap_err(),
            "game 4 was played by 'z', who is not in this event"
        );
        let bad = [record(5, "a", "b", "2-0")];
        assert_eq!(
            from_records(&names, &bad).unwrap_err(),
            "game 5: unknown result '2-0'"
        );
    }

    #[test]
    fn merging_adds_the_games() {
        let names = vec!["a".to_string(), "b".to_string()];
        let mut t = ResultTable::new(names.clone());
        t.add(0, 1, GameResult::Win);
        let mut u = ResultTable::new(names);
        u.add(0, 1, GameResult::Draw);
        u.add(1, 0, GameResult::Win);
        t.merge(&u);
        assert_eq!(t.wdl(0), [1, 1, 1]);
        assert_eq!(t.total_games(), 3);
    }
}
