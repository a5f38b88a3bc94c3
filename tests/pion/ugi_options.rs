//! pion under a UGI match runner, which sets `Variant` and `Game` in any order: a variant of the
//! other game is kept for it (protocol.md, setoption), so both orders give the same game.

use crate::common::Pion;

/// Player 1 can sow F into pit a and take player 2's last seeds (a grand slam), or play A.
const GRAND_SLAM: &str = "position 1,0,0,0,0,1/1,0,0,0,0,0/23,22 1";

fn legal_after(commands: &[&str]) -> String {
    let mut pion = Pion::start();
    for command in commands {
        pion.send(command);
    }
    pion.expect_silent();
    pion.send(GRAND_SLAM);
    pion.ask("legal")
}

#[test]
fn a_variant_set_before_its_game_is_not_lost() {
    let variant = "setoption name Variant value grandslam-capture";
    let game = "setoption name Game value awale";
    // Standard rules forbid the grand slam F while A feeds; grandslam-capture allows it.
    assert_eq!(legal_after(&[game]), "legal A");
    assert_eq!(legal_after(&[game, variant]), "legal A F");
    assert_eq!(legal_after(&[variant, game]), "legal A F");
    assert_eq!(legal_after(&[variant, "newgame awale"]), "legal A F");
}

#[test]
fn the_kept_variant_is_used_once_and_standard_forgets_it() {
    let variant = "setoption name Variant value grandslam-capture";
    // `standard` after a kept variant: the last setting wins.
    let standard = "setoption name Variant value standard";
    assert_eq!(
        legal_after(&[variant, standard, "newgame awale"]),
        "legal A"
    );
    // A later kept variant replaces the earlier one.
    let nocapture = "setoption name Variant value grandslam-nocapture";
    let mut pion = Pion::start();
    pion.send(variant);
    pion.send(nocapture);
    pion.send("newgame awale");
    pion.send(GRAND_SLAM);
    pion.send("play F");
    // No capture: player 1 keeps 23 and the sown seed stays on player 2's side.
    assert_eq!(pion.ask("status"), "status playing turn 2 score 24 24");
    // Consumed by that start: back to Avalam and to Awale again, the standard rules.
    pion.send("newgame avalam");
    pion.send("newgame awale");
    pion.send(GRAND_SLAM);
    assert_eq!(pion.ask("legal"), "legal A");
}

#[test]
fn a_variant_of_the_current_game_still_applies_at_once() {
    let mut pion = Pion::start();
    pion.send("setoption name Game value awale");
    pion.send("setoption name Variant value own-colour");
    pion.expect_silent();
    // Kept for Avalam: Awale's rules are unchanged.
    pion.send(GRAND_SLAM);
    assert_eq!(pion.ask("legal"), "legal A");
    pion.send("setoption name Game value avalam");
    pion.send("position ........./.yr....../........./........./........./........./........./........./......... 1");
    // Own-colour: yellow may only move its own stack onto a red one.
    assert_eq!(pion.ask("legal"), "legal b8c8");
    let reply = pion.ask("setoption name Variant value grandslam");
    assert!(
        reply.starts_with("error setoption: Variant must be one of"),
        "{reply}"
    );
}
