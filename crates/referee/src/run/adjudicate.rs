//! Adjudication from the engines' own scores, as cutechess-cli does it, and from proven results.
//!
//! - `--draw movenumber=N movecount=M score=S`: a draw once at least `N` full moves have been
//!   played (the opening's included) and both engines' scores have stayed within `S` of zero
//!   for the last `M` moves of each (`2M` plies in a row).
//! - `--resign movecount=M score=S [twosided=true]`: an engine loses once its score has been
//!   `-S` or lower for `M` of its moves in a row; with `twosided=true`, only when its opponent's
//!   has also been `S` or higher for `M` of its moves in a row.
//! - `--adjudicate-proven`: the game ends as soon as two consecutive moves carry the same proven
//!   result (`win`/`draw`/`loss` of pion's protocol, one engine's win being the other's loss).
//!
//! A move for which the engine gave no score resets the counts, as a book move does in
//! cutechess. Proven wins and losses count beyond any `S`, UGI mate scores too.

use serde::{Deserialize, Serialize};

use pion_protocol::{EngineScore, Proven};

/// The `--draw` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// Full moves (pairs of plies) the game must have lasted.
    pub movenumber: u32,
    /// Moves of each engine in a row within `score` of zero.
    pub movecount: u32,
    /// The margin around zero, in the engines' hundredths.
    pub score: u32,
}

/// The `--resign` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Moves in a row at `-score` or below.
    pub movecount: u32,
    /// The threshold, in the engines' hundredths.
    pub score: u32,
    /// Whether the winner must agree (its score at `score` or above as long).
    pub twosided: bool,
}

/// The adjudication rules of a match, recorded in its conditions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// The draw rule, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw: Option<DrawRule>,
    /// The resign rule, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resign: Option<ResignRule>,
    /// Whether agreeing proven results end the game.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub proven: bool,
}

/// Which rule ended a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// `--draw`.
    Draw,
    /// `--resign`.
    Resign,
    /// `--adjudicate-proven`.
    Proven,
}

impl Rule {
    /// The word used in records.
    pub fn as_str(self) -> &'static str {
        match self {
            Rule::Draw => "draw",
            Rule::Resign => "resign",
            Rule::Proven => "proven",
        }
    }
}

/// An adjudicated end of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The winner (0 = player 1, 1 = player 2), or `None` for a draw.
    pub winner: Option<usize>,
    /// The rule that ended the game.
    pub rule: Rule,
    /// What happened, for the record.
    pub detail: String,
}

/// Follows one game's scores and says when a rule ends it.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    rules: Adjudication,
    /// Plies in a row with both scores near zero.
    draw_plies: u32,
    /// Each player's moves in a row at `-score` or below.
    losing: [u32; 2],
    /// Each player's moves in a row at `score` or above.
    winning: [u32; 2],
    /// The proven result of the previous move and who reported it.
    last_proven: Option<(usize, Proven)>,
}

impl Adjudicator {
    /// A fresh adjudicator for one game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator {
            rules,
            draw_plies: 0,
            losing: [0; 2],
            winning: [0; 2],
            last_proven: None,
        }
    }

    /// Takes the score `mover` (0 = player 1) gave for the move that brought the game to
    /// `plies` plies (opening included), and says whether the game ends here.
    pub fn observe(
        &mut self,
        plies: u32,
        mover: usize,
        score: Option<EngineScore>,
    ) -> Option<Verdict> {
        let Some(score) = score else {
            self.draw_plies = 0;
            self.losing[mover] = 0;
            self.winning[mover] = 0;
            self.last_proven = None;
            return None;
        };
        let player = |p: usize| p + 1;
        if self.rules.proven {
            let proven = score.proven();
            let agreed = match (self.last_proven, proven) {
                (Some((other, Proven::Win)), Some(Proven::Loss)) if other != mover => {
                    Some(Some(other))
                }
                (Some((other, Proven::Loss)), Some(Proven::Win)) if other != mover => {
                    Some(Some(mover))
                }
                (Some((other, Proven::Draw)), Some(Proven::Draw)) if other != mover => Some(None),
                _ => None,
            };
            self.last_proven = proven.map(|p| (mover, p));
            if let Some(winner) = agreed {
                let what = match winner {
                    Some(w) => format!("a win of player {}", player(w)),
                    None => "a draw".to_string(),
                };
                return Some(Verdict {
                    winner,
                    rule: Rule::Proven,
                    detail: format!("both engines proved {what} (the last said '{score}')"),
                });
            }
        }
        let value = score.centi();
        if let Some(draw) = self.rules.draw {
            if value.abs() <= draw.score as i64 {
                self.draw_plies += 1;
            } else {
                self.draw_plies = 0;
            }
            if plies / 2 >= draw.movenumber && self.draw_plies >= 2 * draw.movecount {
                return Some(Verdict {
                    winner: None,
                    rule: Rule::Draw,
                    detail: format!(
                        "both scores within {} of zero for {} moves each, at move {}",
                        draw.score,
                        draw.movecount,
                        plies.div_ceil(2)
                    ),
                });
            }
        }
        if let Some(resign) = self.rules.resign {
            let threshold = resign.score as i64;
            self.losing[mover] = if value <= -threshold {
                self.losing[mover] + 1
            } else {
                0
            };
            self.winning[mover] = if value >= threshold {
                self.winning[mover] + 1
            } else {
                0
            };
            let other = 1 - mover;
            let resigns = self.losing[mover] >= resign.movecount
                && (!resign.twosided || self.winning[other] >= resign.movecount);
            if resigns {
                let agreed = if resign.twosided {
                    format!(", player {} {threshold} or more", player(other))
                } else {
                    String::new()
                };
                return Some(Verdict {
                    winner: Some(other),
                    rule: Rule::Resign,
                    detail: format!(
                        "player {} scored -{threshold} or less for {} moves{agreed}",
                        player(mover),
                        resign.movecount
                    ),
                });
            }
        }
        None
    }
}

/// Reads `KEY=VALUE` words of the option `flag` into values for `keys` (in that order),
/// refusing unknown, repeated and malformed words.
fn key_values(flag: &str, words: &[String], keys: &[&str]) -> Result<Vec<Option<String>>, String> {
    let mut values = vec![None; keys.len()];
    for word in words {
        let Some((key, value)) = word.split_once('=') else {
            return Err(format!("bad {flag} '{word}': expected KEY=VALUE"));
        };
        let Some(slot) = keys.iter().position(|k| *k == key) else {
            return Err(format!(
                "bad {flag} '{word}': unknown key '{key}' (expected {})",
                keys.join(", ")
            ));
        };
        if values[slot].replace(value.to_string()).is_some() {
            return Err(format!("bad {flag}: {key} given twice"));
        }
    }
    Ok(values)
}

/// A whole number `value` of `key`, at least `min`; `None` if it was not given.
fn number(flag: &str, key: &str, value: &Option<String>, min: u32) -> Result<Option<u32>, String> {
    let Some(text) = value else { return Ok(None) };
    match text.parse::<u32>() {
        Ok(n) if n >= min => Ok(Some(n)),
        _ => Err(format!(
            "bad {flag} '{key}={text}': {key} must be a whole number, at least {min}"
        )),
    }
}

impl DrawRule {
    /// Parses `movenumber=N movecount=M score=S` (all three required).
    pub fn parse(words: &[String]) -> Result<DrawRule, String> {
        const FLAG: &str = "--draw";
        let v = key_values(FLAG, words, &["movenumber", "movecount", "score"])?;
        let missing = |key: &str| {
            format!("bad {FLAG}: missing {key}=... (expected movenumber=N movecount=M score=S)")
        };
        Ok(DrawRule {
            movenumber: number(FLAG, "movenumber", &v[0], 0)?
                .ok_or_else(|| missing("movenumber"))?,
            movecount: number(FLAG, "movecount", &v[1], 1)?.ok_or_else(|| missing("movecount"))?,
            score: number(FLAG, "score", &v[2], 0)?.ok_or_else(|| missing("score"))?,
        })
    }
}

impl ResignRule {
    /// Parses `movecount=M score=S [twosided=true|false]`.
    pub fn parse(words: &[String]) -> Result<ResignRule, String> {
        const FLAG: &str = "--resign";
        let v = key_values(FLAG, words, &["movecount", "score", "twosided"])?;
        let missing = |key: &str| {
            format!("bad {FLAG}: missing {key}=... (expected movecount=M score=S [twosided=true])")
        };
        let twosided = match v[2].as_deref() {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Err(format!(
                    "bad {FLAG} 'twosided={other}': expected true or false"
                ));
            }
        };
        Ok(ResignRule {
            movecount: number(FLAG, "movecount", &v[0], 1)?.ok_or_else(|| missing("movecount"))?,
            score: number(FLAG, "score", &v[1], 0)?.ok_or_else(|| missing("score"))?,
            twosided,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(String::from).collect()
    }

    fn score(text: &str) -> Option<EngineScore> {
        Some(text.parse().unwrap())
    }

    /// Feeds scores from ply `start + 1` on, player 1 moving first; the ply and verdict of the end.
    fn play(
        rules: Adjudication,
        start: u32,
        scores: &[Option<EngineScore>],
    ) -> Option<(u32, Verdict)> {
        let mut a = Adjudicator::new(rules);
        for (i, s) in scores.iter().enumerate() {
            let plies = start + i as u32 + 1;
            let mover = (plies as usize + 1) % 2;
            if let Some(v) = a.observe(plies, mover, *s) {
                return Some((plies, v));
            }
        }
        None
    }

    fn draw(movenumber: u32, movecount: u32, score: u32) -> Adjudication {
        Adjudication {
            draw: Some(DrawRule {
                movenumber,
                movecount,
                score,
            }),
            ..Adjudication::default()
        }
    }

    #[test]
    fn a_draw_needs_the_move_number_and_both_engines_near_zero() {
        let quiet = vec![score("cp 5"); 20];
        // movecount 2: four plies in a row; movenumber 3: ply 6 at the earliest.
        let (ply, v) = play(draw(3, 2, 10), 0, &quiet).unwrap();
        assert_eq!((ply, v.winner, v.rule), (6, None, Rule::Draw));
        let (ply, _) = play(draw(0, 2, 10), 0, &quiet).unwrap();
        assert_eq!(ply, 4);
        // The opening's plies count towards the move number.
        let (ply, _) = play(draw(3, 2, 10), 4, &quiet).unwrap();
        assert_eq!(ply, 8);
    }

    #[test]
    fn a_score_outside_the_margin_or_missing_restarts_the_draw_count() {
        let mut scores = vec![
            score("cp 5"),
            score("cp -10"),
            score("cp 11"),
            score("cp 0"),
        ];
        scores.extend([score("cp 0"), None, score("draw"), score("cp -3")]);
        scores.extend(vec![score("cp 1"); 4]);
        // Counts restart after ply 3 (11 > 10) and after ply 6 (no score): plies 7..10 end it.
        let (ply, _) = play(draw(0, 2, 10), 0, &scores).unwrap();
        assert_eq!(ply, 10);
        let proven_win = vec![score("win 2"); 10];
        assert_eq!(play(draw(0, 2, 10), 0, &proven_win), None);
    }

    fn resign(movecount: u32, score: u32, twosided: bool) -> Adjudication {
        Adjudication {
            resign: Some(ResignRule {
                movecount,
                score,
                twosided,
            }),
            ..Adjudication::default()
        }
    }

    #[test]
    fn an_engine_resigns_after_its_own_losing_moves_in_a_row() {
        // Player 2 (odd entries) says -500 three times; player 1 says nothing useful.
        let scores = [
            score("cp 0"),
            score("cp -500"),
            score("cp 20"),
            score("cp -450"),
            score("cp 10"),
            score("loss 3"),
        ];
        let (ply, v) = play(resign(3, 400, false), 0, &scores).unwrap();
        assert_eq!((ply, v.winner, v.rule), (6, Some(0), Rule::Resign));
        assert_eq!(v.detail, "player 2 scored -400 or less for 3 moves");
        // A better score of the loser in between restarts its count.
        let mut broken = scores.to_vec();
        broken[3] = score("cp -399");
        assert_eq!(play(resign(3, 400, false), 0, &broken), None);
    }

    #[test]
    fn two_sided_resignation_needs_the_winner_to_agree() {
        let disagree = [
            score("cp 100"),
            score("cp -500"),
            score("cp 100"),
            score("cp -500"),
        ];
        assert!(play(resign(2, 400, false), 0, &disagree).is_some());
        assert_eq!(play(resign(2, 400, true), 0, &disagree), None);
        let agree = [
            score("cp 450"),
            score("cp -500"),
            score("mate 3"),
            score("cp -500"),
        ];
        let (ply, v) = play(resign(2, 400, true), 0, &agree).unwrap();
        assert_eq!((ply, v.winner), (4, Some(0)));
        assert_eq!(
            v.detail,
            "player 2 scored -400 or less for 2 moves, player 1 400 or more"
        );
    }

    #[test]
    fn proven_results_end_the_game_when_both_engines_agree() {
        let proven = Adjudication {
            proven: true,
            ..Adjudication::default()
        };
        // Player 1 proves a win, player 2 has not seen it yet, then both agree.
        let scores = [
            score("cp 300"),
            score("cp -250"),
            score("win 2"),
            score("cp -280"),
            score("win 2 lowerbound"),
            score("loss 2"),
        ];
        let (ply, v) = play(proven, 0, &scores).unwrap();
        assert_eq!((ply, v.winner, v.rule), (6, Some(0), Rule::Proven));
        assert_eq!(
            v.detail,
            "both engines proved a win of player 1 (the last said 'loss 2')"
        );
        // The loser proves it first.
        let (_, v) = play(proven, 0, &[score("loss 1"), score("win 1")]).unwrap();
        assert_eq!(v.winner, Some(1));
        let (_, v) = play(proven, 0, &[score("draw"), score("draw")]).unwrap();
        assert_eq!(v.winner, None);
        // Two wins claimed, a missing score in between, or only a bound: no verdict.
        assert_eq!(play(proven, 0, &[score("win 1"), score("win 1")]), None);
        assert_eq!(
            play(proven, 0, &[score("win 1"), None, score("loss 1")]),
            None
        );
        assert_eq!(
            play(proven, 0, &[score("cp 10 lowerbound"), score("cp -10")]),
            None
        );
        assert_eq!(
            play(Adjudication::default(), 0, &[score("draw"), score("draw")]),
            None
        );
    }

    #[test]
    fn rules_parse_with_one_clear_line_per_mistake() {
        assert_eq!(
            DrawRule::parse(&words("movenumber=40 movecount=8 score=10")),
            Ok(DrawRule {
                movenumber: 40,
                movecount: 8,
                score: 10
            })
        );
        assert_eq!(
            ResignRule::parse(&words("movecount=3 score=400 twosided=true")),
            Ok(ResignRule {
                movecount: 3,
                score: 400,
                twosided: true
            })
        );
        let one_sided = ResignRule::parse(&words("score=400 movecount=3")).unwrap();
        assert!(!one_sided.twosided);
        let cases = [
            (
                DrawRule::parse(&words("movecount=8 score=10")).map(|_| ()),
                "bad --draw: missing movenumber=... (expected movenumber=N movecount=M score=S)",
            ),
            (
                DrawRule::parse(&words("movenumber=40 movecount=0 score=10")).map(|_| ()),
                "bad --draw 'movecount=0': movecount must be a whole number, at least 1",
            ),
            (
                DrawRule::parse(&words("movenumber=x")).map(|_| ()),
                "bad --draw 'movenumber=x': movenumber must be a whole number, at least 0",
            ),
            (
                DrawRule::parse(&words("moves=3")).map(|_| ()),
                "bad --draw 'moves=3': unknown key 'moves' (expected movenumber, movecount, score)",
            ),
            (
                DrawRule::parse(&words("score=1 score=2")).map(|_| ()),
                "bad --draw: score given twice",
            ),
            (
                ResignRule::parse(&words("400")).map(|_| ()),
                "bad --resign '400': expected KEY=VALUE",
            ),
            (
                ResignRule::parse(&words("movecount=3 score=-400")).map(|_| ()),
                "bad --resign 'score=-400': score must be a whole number, at least 0",
            ),
            (
                ResignRule::parse(&words("movecount=3 score=400 twosided=yes")).map(|_| ()),
                "bad --resign 'twosided=yes': expected true or false",
            ),
            (
                ResignRule::parse(&words("movecount=3")).map(|_| ()),
                "bad --resign: missing score=... (expected movecount=M score=S [twosided=true])",
            ),
        ];
        for (result, message) in cases {
            assert_eq!(result.unwrap_err(), message);
        }
    }

    #[test]
    fn rules_serialize_for_the_conditions() {
        let rules = Adjudication {
            draw: Some(DrawRule {
                movenumber: 40,
                movecount: 8,
                score: 10,
            }),
            resign: None,
            proven: true,
        };
        let json = serde_json::to_string(&rules).unwrap();
        assert_eq!(
            json,
            r#"{"draw":{"movenumber":40,"movecount":8,"score":10},"proven":true}"#
        );
        assert_eq!(serde_json::from_str::<Adjudication>(&json).unwrap(), rules);
        assert_eq!(
            serde_json::to_string(&Adjudication::default()).unwrap(),
            "{}"
        );
    }
}
