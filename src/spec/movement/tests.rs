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
        (dir(), any::<bool>(), any::<bool>(), screen()).prop_map(|(dir, quiet, beyond, screen)| {
            Travel::Cannon {
                dir,
                quiet,
                beyond,
                screen,
            }
        }),
        (dir(), dir(), name()).prop_map(|(side, forward, piece)| Travel::EnPassant {
            side,
            forward,
            piece
        }),
        Just(Travel::Drop),
        prop::sample::select(vec!["a1", "c3"]).prop_map(|p| Travel::To(p.to_string())),
        (prop::collection::vec(via(), 1..4), dir())
            .prop_map(|(via, last)| Travel::Path { via, last }),
    ]
}

fn screen() -> impl Strategy<Value = Vec<Cond>> {
    let not_cannon = not(Cond::Piece {
        piece: "Cannon".into(),
        at: None,
    });
    prop::sample::select(vec![
        vec![],
        vec![not_cannon.clone()],
        vec![not(test(Test::Empty)), not_cannon],
        vec![test(Test::Enemy)],
    ])
}

fn via() -> impl Strategy<Value = Via> {
    let tests = prop::collection::vec(
        prop::sample::select(vec![
            test(Test::Empty),
            not(test(Test::Empty)),
            test(Test::Enemy),
            Cond::Piece {
                piece: "Lion".into(),
                at: None,
            },
            in_zone("home"),
        ]),
        0..3,
    );
    (dir(), tests, any::<bool>()).prop_map(|(dir, tests, capture)| Via {
        dir,
        tests,
        capture,
    })
}

/// Every run of consecutive verifications reversed (a permutation), in branches and loops too.
fn reversed_runs(p: &[Instr]) -> Vec<Instr> {
    let mut out: Vec<Instr> = Vec::new();
    let mut run: Vec<Instr> = Vec::new();
    for i in p {
        if let Instr::Verify(_) = i {
            run.push(i.clone());
            continue;
        }
        out.extend(run.drain(..).rev());
        out.push(match i {
            Instr::If { cond, then_, else_ } => Instr::If {
                cond: cond.clone(),
                then_: reversed_runs(then_),
                else_: reversed_runs(else_),
            },
            Instr::While { cond, body } => Instr::While {
                cond: cond.clone(),
                body: reversed_runs(body),
            },
            other => other.clone(),
        });
    }
    out.extend(run.drain(..).rev());
    out
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
                in_zone("palace"),
            ]),
            0..3,
        ),
        prop::collection::vec(
            prop::sample::select(vec![in_zone("home"), Cond::Flag { flag: "f".into() }]),
            0..2,
        ),
        any::<bool>(),
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
                through,
            )| {
                Movement {
                    travel,
                    land,
                    arrive,
                    run,
                    through,
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

    /// Consecutive verifications commute: in another order a program is still typed, as a
    /// movement of the same kind of travel whose program tests the same (the order of several
    /// landing or other tests in one run may differ), and the comparison of programs sees them equal.
    #[test]
    /// (A run with two landing tests may read as another landing, which some travels refuse:
    /// such movements are left out.)
    fn the_order_of_consecutive_tests_does_not_matter(m in movement()) {
        prop_assume!(!m.arrive.iter().any(|c| land_of(c).is_some()));
        let written = program(&m);
        let mut block = written.clone();
        block.program = reversed_runs(&block.program);
        let r = recognise(&block);
        prop_assert!(r.is_ok(), "{:?}", r);
        let r = r.expect("checked");
        prop_assert_eq!(std::mem::discriminant(&r.travel), std::mem::discriminant(&m.travel));
        let mut eq = crate::spec::moves::Equality::new(&[], &[]);
        prop_assert!(eq.blocks(&[program(&r)], std::slice::from_ref(&written)));
        prop_assert!(eq.blocks(&[block], &[written]));
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
    let cannon = |quiet, beyond| Travel::Cannon {
        dir: "n".into(),
        quiet,
        beyond,
        screen: Vec::new(),
    };
    let beyond = Movement::new(cannon(false, true), Land::Empty);
    assert!(beyond.is_normal());
    let p = program(&beyond);
    assert!(
        matches!(p.program.last(), Some(Instr::While { body, .. }) if body.len() == 2),
        "the moves beyond the screen are in the last loop: {:?}",
        p.program
    );
    assert_eq!(recognise(&p), Ok(beyond));
    assert!(!Movement::new(cannon(true, false), Land::Empty).is_normal());
}

/// A draughts man's capture that promotes on the far row and otherwise continues is typed:
/// the promotion ends the move, and only the move that does not promote continues.
#[test]
fn a_promotion_ends_a_continuing_capture() {
    let mut m = Movement::new(
        Travel::Hop {
            dir: "nw".into(),
            over: Hurdle::Enemy,
            capture: true,
        },
        Land::Empty,
    );
    m.promotion = Some(Promotion {
        zone: Some("promotion".into()),
        pieces: vec!["King".into()],
        forced: true,
    });
    m.continues = Some(Continuation {
        move_type: Some("jump-type".into()),
    });
    assert!(m.is_normal());
    let p = program(&m);
    let Some(Instr::If { then_, else_, .. }) = p.program.last() else {
        panic!("{:?}", p.program)
    };
    assert!(matches!(&then_[..], [Instr::Add { partial: false, .. }]));
    assert!(matches!(&else_[..], [Instr::Add { partial: true, .. }]));
    assert_eq!(recognise(&p), Ok(m.clone()));
    m.promotion.as_mut().expect("set").forced = false;
    assert!(
        !m.is_normal(),
        "an optional promotion with a continuation has no one meaning"
    );
}

/// The shared corpus's palace moves test the destination's zone before what it holds
/// (`gwangsanghui.zrf`): the tests commute, so the block is the typed step all the same, and
/// its program is the same tests in the table's order.
#[test]
fn tests_in_another_order_are_typed_the_same() {
    let knight = || {
        Cond::Not(Box::new(Cond::Piece {
            piece: "Knight".into(),
            at: None,
        }))
    };
    let b = block(vec![
        v(in_zone("palace")),
        step("n"),
        v(in_zone("palace")),
        v(not(test(Test::Friend))),
        v(knight()),
        Instr::plain_add(),
    ]);
    let m = recognise(&b).expect("typed");
    assert_eq!(m.travel, Travel::Step("n".into()));
    assert_eq!(m.land, Land::NotFriend);
    assert_eq!(
        (m.from_zone.as_deref(), m.zone.as_deref()),
        (Some("palace"), Some("palace"))
    );
    assert_eq!(m.arrive, [knight()]);
    assert_eq!(
        program(&m).program,
        canonical(&b.program),
        "written in the table's order"
    );
    assert_ne!(program(&m).program, b.program);
}

/// Paths that test what they pass: a hop over a given piece that captures it (Thud's troll
/// shove, `koom-valley-thud.zrf`), a jump over a line of men (Chinese checkers), a leap whose
/// midpoint may be empty or a stone (`chess-go-mobile.zrf`).
#[test]
fn general_paths_are_typed() {
    let dwarf = Cond::Piece {
        piece: "Dwarf".into(),
        at: None,
    };
    let hop = block(vec![
        step("n"),
        v(dwarf.clone()),
        Instr::Capture { at: None },
        step("n"),
        v(test(Test::Empty)),
        Instr::plain_add(),
    ]);
    let m = recognise(&hop).expect("typed");
    let via = |dir: &str, tests: Vec<Cond>, capture| Via {
        dir: dir.into(),
        tests,
        capture,
    };
    assert_eq!(
        m.travel,
        Travel::Path {
            via: vec![via("n", vec![dwarf.clone()], true)],
            last: "n".into()
        }
    );
    assert_eq!(m.land, Land::Empty);
    let jump = block(vec![
        step("e"),
        v(test(Test::Empty)),
        step("e"),
        v(not(test(Test::Empty))),
        step("e"),
        v(test(Test::Empty)),
        step("e"),
        v(test(Test::Empty)),
        Instr::plain_add(),
    ]);
    let m = recognise(&jump).expect("typed");
    assert!(matches!(&m.travel, Travel::Path { via, .. } if via.len() == 3));
    let stone = Cond::Or(vec![test(Test::Empty), dwarf]);
    let leap = block(vec![step("n"), v(stone), step("ne"), Instr::plain_add()]);
    let m = recognise(&leap).expect("typed");
    assert_eq!(m.land, Land::Any);
    // A path every test of which is the emptiness of a lame leap is that lame leap.
    let lame = block(vec![
        step("n"),
        v(test(Test::Empty)),
        step("ne"),
        v(not(test(Test::Friend))),
        Instr::plain_add(),
    ]);
    assert!(matches!(recognise(&lame).unwrap().travel, Travel::Lame(_)));
}

/// A slide through positions that need not be empty (`bomb-chess.zrf`'s rook passes its own
/// bombs) is typed with its run's one test; a writer that cannot say it sees `through`.
#[test]
fn slides_through_occupied_positions_are_typed() {
    let bomb = Cond::Or(vec![
        test(Test::Empty),
        Cond::Piece {
            piece: "Bomb".into(),
            at: None,
        },
    ]);
    let b = block(vec![
        step("n"),
        Instr::While {
            cond: bomb.clone(),
            body: vec![Instr::plain_add(), step("n")],
        },
        v(not(test(Test::Friend))),
        Instr::plain_add(),
    ]);
    let m = recognise(&b).expect("typed");
    assert!(m.through);
    assert_eq!(m.run, [bomb]);
    assert_eq!(m.land, Land::NotFriend);
    assert_eq!(program(&m).program, b.program);
}

/// The quiet slide an untyped block begins with (a slide whose capture also explodes) is typed
/// on its own, and a block the table types whole has no such part.
#[test]
fn the_slide_part_of_an_untyped_block() {
    let slide = |tail: Vec<Instr>| {
        let mut p = vec![
            step("n"),
            Instr::While {
                cond: test(Test::Empty),
                body: vec![Instr::plain_add(), step("n")],
            },
        ];
        p.extend(tail);
        block(p)
    };
    let explodes = slide(vec![
        v(test(Test::Enemy)),
        Instr::Capture {
            at: Some("e".into()),
        },
        Instr::plain_add(),
    ]);
    assert!(recognise(&explodes).is_err());
    let part = slide_part(&explodes).expect("a slide part");
    assert_eq!(part.land, Land::Empty);
    assert!(matches!(part.travel, Travel::Slide { quiet: true, .. }));
    let plain = slide(vec![v(test(Test::Enemy)), Instr::plain_add()]);
    assert!(recognise(&plain).is_ok());
    assert_eq!(slide_part(&plain), None);
}

/// Janggi's palace and cannon moves (`janggi.zrf`): a slide confined to the fortress (a zone
/// test before each move of its run, so leaving the zone ends it), and the cannon whose screen
/// is any piece but a cannon, moving beyond it and taking what is neither friendly nor a cannon.
#[test]
fn janggi_palace_slides_and_cannon_hops_are_typed() {
    let fortress = || v(in_zone("fortress"));
    let slide = block(vec![
        fortress(),
        step("ne"),
        Instr::While {
            cond: test(Test::Empty),
            body: vec![fortress(), Instr::plain_add(), step("ne")],
        },
        fortress(),
        v(not(test(Test::Friend))),
        Instr::plain_add(),
    ]);
    let m = recognise(&slide).expect("typed");
    let quiet = Travel::Slide {
        dir: "ne".into(),
        max: None,
        quiet: true,
    };
    assert_eq!(m.travel, quiet);
    assert_eq!(
        (m.from_zone.as_deref(), m.zone.as_deref(), m.land),
        (Some("fortress"), Some("fortress"), Land::NotFriend)
    );
    // The zone is tested inside the run: a step out of it ends the slide.
    assert!(matches!(&program(&m).program[2], Instr::While { body, .. } if body[0] == fortress()));
    let not_cannon = || {
        not(Cond::Piece {
            piece: "Cannon".into(),
            at: None,
        })
    };
    let shoot = block(vec![
        step("n"),
        Instr::While {
            cond: test(Test::Empty),
            body: vec![step("n")],
        },
        v(not_cannon()),
        step("n"),
        Instr::While {
            cond: test(Test::Empty),
            body: vec![Instr::plain_add(), step("n")],
        },
        v(not(test(Test::Friend))),
        v(not_cannon()),
        Instr::plain_add(),
    ]);
    let m = recognise(&shoot).expect("typed");
    assert_eq!(
        m.travel,
        Travel::Cannon {
            dir: "n".into(),
            quiet: false,
            beyond: true,
            screen: vec![not_cannon()],
        }
    );
    assert_eq!(
        (m.land, m.arrive.clone()),
        (Land::NotFriend, vec![not_cannon()])
    );
    // Without its landing, the moves beyond the screen alone; a screen that must be a cannon
    // is typed too, while a screen tested only as "occupied" is the plain cannon's.
    let mut beyond = m.clone();
    (beyond.land, beyond.arrive) = (Land::Empty, Vec::new());
    assert_eq!(recognise(&program(&beyond)), Ok(beyond));
    let mut plain = m.clone();
    plain.travel = Travel::Cannon {
        dir: "n".into(),
        quiet: false,
        beyond: true,
        screen: vec![not(test(Test::Empty))],
    };
    assert!(!plain.is_normal());
}

/// A move straight to a named position (Ludii's `(move (from) (to (sites Empty)))`, one per
/// position): a jump there, the landing, the add; read back as the same movement.
#[test]
fn a_move_to_a_named_position_is_a_jump_there() {
    let m = Movement::new(Travel::To("b2".into()), Land::Empty);
    assert!(m.is_normal());
    let block = program(&m);
    assert_eq!(
        block.program,
        [
            Instr::Jump("b2".into()),
            Instr::Verify(test(Test::Empty)),
            Instr::plain_add()
        ]
    );
    assert_eq!(recognise(&block).unwrap(), m);
}
