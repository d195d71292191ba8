//! Unit and property tests of the movement table: the round trip, ZRF idioms, refusals.

use super::*;
use proptest::prelude::*;

fn dir() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["n", "e", "s", "w", "ne", "nw"]).prop_map(String::from)
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["Queen", "Rook", "Gold", "King"]).prop_map(String::from)
}

fn zone() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop::sample::select(vec!["last-rank", "third-rank"]).prop_map(String::from))
}

fn land() -> impl Strategy<Value = Land> {
    prop::sample::select(vec![
        Land::Empty,
        Land::Enemy,
        Land::NotFriend,
        Land::Friend,
        Land::Any,
    ])
}

fn travel() -> impl Strategy<Value = Travel> {
    let hurdle = prop::sample::select(vec![
        Hurdle::Occupied,
        Hurdle::Enemy,
        Hurdle::Friend,
        Hurdle::Any,
    ]);
    prop_oneof![
        dir().prop_map(Travel::Step),
        (dir(), prop::option::of(1usize..5), any::<bool>())
            .prop_map(|(dir, max, quiet)| Travel::Slide { dir, max, quiet }),
        prop::collection::vec(dir(), 1..4).prop_map(Travel::Leap),
        prop::collection::vec(dir(), 1..4).prop_map(Travel::Lame),
        (dir(), hurdle, any::<bool>()).prop_map(|(dir, over, capture)| Travel::Hop {
            dir,
            over,
            capture
        }),
        (dir(), any::<bool>()).prop_map(|(dir, quiet)| Travel::Cannon { dir, quiet }),
        (dir(), dir(), name()).prop_map(|(side, forward, piece)| Travel::EnPassant {
            side,
            forward,
            piece
        }),
        Just(Travel::Drop),
    ]
}

fn promotion() -> impl Strategy<Value = Option<Promotion>> {
    prop::option::of(
        (zone(), prop::collection::vec(name(), 0..3), any::<bool>()).prop_map(
            |(zone, pieces, forced)| Promotion {
                zone,
                pieces,
                forced,
            },
        ),
    )
}

fn movement() -> impl Strategy<Value = Movement> {
    let cont = prop::option::of(
        prop::option::of(Just("jump".to_string())).prop_map(|move_type| Continuation { move_type }),
    );
    (
        travel(),
        land(),
        (zone(), zone(), zone()),
        promotion(),
        cont,
        prop::option::of(Just("normal".to_string())),
        prop::collection::vec(
            prop::sample::select(vec![
                Cond::Flag { flag: "f".into() },
                in_zone("palace"),
                not(test(Test::Enemy)),
            ]),
            0..3,
        ),
        prop::collection::vec(
            prop::sample::select(vec![
                Cond::Piece {
                    piece: "Lion".into(),
                    at: None,
                },
                not(test(Test::Enemy)),
                test(Test::Empty),
            ]),
            0..3,
        ),
        prop::collection::vec(
            prop::sample::select(vec![in_zone("home"), Cond::Flag { flag: "f".into() }]),
            0..2,
        ),
    )
        .prop_map(
            |(
                travel,
                land,
                (from_zone, first_in, zone),
                promotion,
                continues,
                move_type,
                guard,
                arrive,
                run,
            )| {
                Movement {
                    travel,
                    land,
                    arrive,
                    run,
                    from_zone,
                    guard,
                    first_in,
                    zone,
                    promotion,
                    continues,
                    move_type,
                }
            },
        )
        .prop_filter("normal forms only", Movement::is_normal)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// The table's promise: what `program` writes, `recognise` reads back as the same movement.
    #[test]
    fn recognise_reads_back_every_generated_program(m in movement()) {
        let block = program(&m);
        prop_assert_eq!(recognise(&block), Ok(m));
    }

    /// And a form that is not normal is never produced by recognition.
    #[test]
    fn recognised_movements_are_normal(m in movement()) {
        let r = recognise(&program(&m)).expect("normal forms are recognised");
        prop_assert!(r.is_normal());
    }
}

fn v(c: Cond) -> Instr {
    Instr::Verify(c)
}

fn add_q(pieces: &[&str]) -> Instr {
    Instr::Add {
        pieces: pieces.iter().map(|s| s.to_string()).collect(),
        partial: false,
        copy: false,
        move_type: None,
    }
}

fn block(program: Vec<Instr>) -> MoveBlock {
    MoveBlock {
        move_type: None,
        program,
    }
}

/// The pawn of the shared corpus's `chess.zrf`, as its macros expand.
#[test]
fn the_zrf_chess_pawn_is_typed_block_by_block() {
    let shift = block(vec![
        step("n"),
        v(test(Test::Empty)),
        Instr::If {
            cond: in_zone("last-rank"),
            then_: vec![add_q(&["Queen"])],
            else_: vec![Instr::plain_add()],
        },
    ]);
    let m = recognise(&shift).unwrap();
    assert_eq!(m.travel, Travel::Step("n".into()));
    assert_eq!(m.land, Land::Empty);
    assert_eq!(
        m.promotion,
        Some(Promotion {
            zone: Some("last-rank".into()),
            pieces: vec!["Queen".into()],
            forced: true
        })
    );
    let jump = block(vec![
        step("n"),
        v(test(Test::Empty)),
        v(in_zone("third-rank")),
        step("n"),
        v(test(Test::Empty)),
        Instr::plain_add(),
    ]);
    let m = recognise(&jump).unwrap();
    assert_eq!(m.travel, Travel::Lame(vec!["n".into(), "n".into()]));
    assert_eq!(m.first_in.as_deref(), Some("third-rank"));
    let ep = block(vec![
        step("e"),
        v(test(Test::Enemy)),
        v(test(Test::LastTo)),
        v(Cond::Piece {
            piece: "Pawn".into(),
            at: None,
        }),
        Instr::Capture { at: None },
        step("n"),
        Instr::Mark,
        step("n"),
        v(test(Test::LastFrom)),
        Instr::Back,
        Instr::plain_add(),
    ]);
    assert_eq!(
        recognise(&ep).unwrap().travel,
        Travel::EnPassant {
            side: "e".into(),
            forward: "n".into(),
            piece: "Pawn".into()
        }
    );
    let slide = block(vec![
        step("n"),
        Instr::While {
            cond: test(Test::Empty),
            body: vec![Instr::plain_add(), step("n")],
        },
        v(not(test(Test::Friend))),
        Instr::plain_add(),
    ]);
    let m = recognise(&slide).unwrap();
    assert_eq!(
        (m.travel, m.land),
        (
            Travel::Slide {
                dir: "n".into(),
                max: None,
                quiet: true
            },
            Land::NotFriend
        )
    );
    let knight = block(vec![
        step("n"),
        step("ne"),
        v(not(test(Test::Friend))),
        Instr::plain_add(),
    ]);
    assert_eq!(
        recognise(&knight).unwrap().travel,
        Travel::Leap(vec!["n".into(), "ne".into()])
    );
}

#[test]
fn draughts_jumps_and_drops_are_typed() {
    let jump = block(vec![
        step("ne"),
        v(test(Test::Enemy)),
        Instr::Capture { at: None },
        step("ne"),
        v(test(Test::Empty)),
        Instr::Add {
            pieces: vec![],
            partial: true,
            copy: false,
            move_type: Some("jumptype".into()),
        },
    ]);
    let m = recognise(&jump).unwrap();
    assert_eq!(
        m.travel,
        Travel::Hop {
            dir: "ne".into(),
            over: Hurdle::Enemy,
            capture: true
        }
    );
    assert_eq!(
        m.continues,
        Some(Continuation {
            move_type: Some("jumptype".into())
        })
    );
    let drop = block(vec![
        v(test(Test::Empty)),
        v(in_zone("home")),
        Instr::plain_add(),
    ]);
    let m = recognise(&drop).unwrap();
    assert_eq!((m.travel, m.land), (Travel::Drop, Land::Empty));
    assert_eq!(m.zone.as_deref(), Some("home"));
}

#[test]
fn calls_are_seen_through_when_inlined() {
    let procs = vec![vec![step("n"), v(test(Test::Empty)), Instr::plain_add()]];
    let called = block(vec![Instr::Call(0)]);
    assert!(recognise(&called).is_err(), "a raw call is not typed");
    let m = recognise_in(&called, &procs, &mut Inliner::new(1)).unwrap();
    assert_eq!(m.travel, Travel::Step("n".into()));
}

#[test]
fn blocks_outside_the_table_say_why() {
    // A flag test at the destination is one of its untyped conditions…
    let flagged = block(vec![
        step("n"),
        v(Cond::Flag { flag: "f".into() }),
        Instr::plain_add(),
    ]);
    let m = recognise(&flagged).unwrap();
    assert_eq!(
        (m.land, m.arrive),
        (Land::Any, vec![Cond::Flag { flag: "f".into() }])
    );
    // …but setting a flag is outside the vocabulary.
    let setting = block(vec![
        step("n"),
        Instr::SetFlag {
            flag: "f".into(),
            value: Cond::Flag { flag: "g".into() },
        },
        Instr::plain_add(),
    ]);
    assert!(recognise(&setting).is_err());
    // A cascade (castling) is outside it too.
    let castle = block(vec![
        step("e"),
        Instr::Cascade,
        step("w"),
        Instr::plain_add(),
    ]);
    assert!(recognise(&castle).is_err());
    // No add at all.
    assert!(recognise(&block(vec![step("n")])).is_err());
    // A one-link leap is a step, so the leap form is not normal.
    let m = Movement::new(Travel::Leap(vec!["n".into()]), Land::Any);
    assert!(!m.is_normal());
    assert_eq!(
        recognise(&program(&m)).unwrap().travel,
        Travel::Step("n".into())
    );
}

#[test]
fn ranged_slides_stop_at_their_range() {
    let m = Movement::new(
        Travel::Slide {
            dir: "n".into(),
            max: Some(3),
            quiet: true,
        },
        Land::NotFriend,
    );
    let p = program(&m);
    // Three nested levels, each stepping once.
    let mut steps = 0;
    let mut budget = 1000;
    crate::spec::moves::visit(&p.program, &[], &mut budget, &mut |i, _| {
        if matches!(i, Instr::Step(_)) {
            steps += 1;
        }
    });
    assert_eq!(steps, 3);
    assert_eq!(recognise(&p), Ok(m));
}

/// Betza's capture-only rider (`cR`) and the hopper that moves beyond its screen (`mpR`) are
/// typed, and each reads back from its program.
#[test]
fn capture_only_riders_and_moves_beyond_a_screen_are_typed() {
    let slide = |quiet| Travel::Slide {
        dir: "n".into(),
        max: None,
        quiet,
    };
    let rider = Movement::new(slide(false), Land::Enemy);
    assert!(rider.is_normal());
    let p = program(&rider);
    assert!(
        !matches!(&p.program[1], Instr::While { body, .. } if body.iter().any(|i| matches!(i, Instr::Add { .. }))),
        "a capture-only rider adds no move along its run: {:?}",
        p.program
    );
    assert_eq!(recognise(&p), Ok(rider));
    assert!(!Movement::new(slide(false), Land::Empty).is_normal());
    let cannon = |quiet| Travel::Cannon {
        dir: "n".into(),
        quiet,
    };
    let beyond = Movement::new(cannon(false), Land::Empty);
    assert!(beyond.is_normal());
    let p = program(&beyond);
    assert!(
        matches!(p.program.last(), Some(Instr::While { body, .. }) if body.len() == 2),
        "the moves beyond the screen are in the last loop: {:?}",
        p.program
    );
    assert_eq!(recognise(&p), Ok(beyond));
    assert!(!Movement::new(cannon(true), Land::Empty).is_normal());
}
