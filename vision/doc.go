// Package vision reads camera frames of a Sorcery realm. Given the realm's
// corners (package calibration), an Analyzer warps the frame to a top-down
// image at a fixed scale (2 px/mm, with a 90 mm margin for cards off the
// grid), where every card has the size of its reference face. Cards are read
// in grey: the frame is turned grey first and warped at full resolution; the
// colour the hand test needs is warped at half resolution. The warp is the
// package's own (warp.cpp): OpenCV's bilinear warp with the source positions
// computed eight at a time in single precision, black beyond the horizon.
//
// Cards are found and named together, as a multi-instance planar recognition
// problem: ORB keypoints of the frame are matched against every reference
// face at once (a locality-sensitive hash over all faces' descriptors, with a
// ratio test against the best match on any other face), and per face a
// similarity (turn, scale near 1, shift) is fitted with RANSAC, one card at a
// time, removing each accepted card's inliers. A fit whose inliers lie
// along one line and explain few of its face's matches is chance (the
// keypoints along a face's straight edge match those along any straight
// edge of the frame, and a fit on them turns the face as it likes) and is
// not taken. A card in plain view has far
// more keypoints than its fit needs, so a first pass looks up half the
// keypoints in a few hash tables, and only the keypoints the cards it finds
// do not explain are looked up in all of them. A hash table splits a
// crowded bucket by further key bits instead of dropping it (a tree of
// buckets of at most 16 descriptors), so a catalog of a thousand faces
// scans buckets as small as one of forty. A pass's keypoints are looked up
// together (lsh.c), table by table in sweeps over all of them, each read
// asked for ahead of need so that many wait for memory at once.
// The tables' arrays are asked to be backed by huge pages (Linux,
// hugepages_linux.go), so that a large catalog's random reads rarely miss
// the processor's address translation cache as well. Each card fitted is then
// verified against every described keypoint in its outline (those the
// passes looked up; mapped back onto the face,
// features all faces share left out), which gives its confidence; a fit
// with too few hash-table inliers to stand alone (a token seen blurred or
// at a low resolution) is accepted when that check bears it out, for faces
// with others of their kind to tell their own features from the layout
// all share. One fit
// gives the card's outline, its turn (so its owner and whether it is tapped; a site's
// landscape shape says nothing about tapped) and its name, and it holds when
// a unit covers half a site. Card-shaped outlines no fit explains (Canny's
// edges, by a detector of the package's own (edges.cpp) that marks exactly
// OpenCV's edges of the lightly blurred image, blurring and thickening them
// row by row itself, left out of the faces already fitted; followed again
// with the printed grid lines taken out where no other edge touches them
// from outside, so that a card lying across a line closes an outline of
// its own: outline_lines.go; a sleeved card's outline, its sides grown alike, is a
// card's too; its thresholds
// are lowered on a soft frame, out of focus or enlarged from a low
// resolution, by how sharp the image's strong steps are, along rows and along columns,
// within what the camera frame shows: sharpness.go; a frame soft along both
// rows and columns is sharpened by an unsharp mask before anything is read
// in it, a frame soft along one only, smeared by a motion, is not) get a second look through a
// perceptual-hash shortlist (unless the frame's keypoints covered the
// outline as densely as the matched cards: then the frame's matching saw
// the card as well and no face fitted; a face fitted in it at another
// size than the frame's cards, on few inliers, is not taken), and are reported unknown
// with a low confidence when no face fits: never with a wrong name. A
// landscape card of a card's size whose whole outline shows is a tapped
// unit when it lies across a matched card (none of that card's inliers
// within it) and a site otherwise. A card standing on
// another shows no closed outline of its own (its edges merge with the
// card's below): where many keypoints lie on no card found, a rectangle of
// a card's size is sought whose four sides are straight edges with a
// card's plain printed border just inside (outline_stack.go: the edge
// pixels around the cluster are projected along the few directions most
// of their gradients share, and pairs of peaks a card's sides apart are
// its sides); it is reported unknown, a landscape one as a tapped unit
// when it lies across another card and as a site otherwise; such a
// rectangle across a matched card whose face shows inside it is not a card
// on top (face_shows.go). An unknown card's turn, and whether a landscape
// one is a site or a unit turned sideways, is read from the layout its
// kind's faces share (the mean catalog face, layout.go); one off the grid
// that shows no face's layout (a face-down pile) is not reported. One card is
// never reported twice: two fits of one face that each hold most of the
// other's inliers are one card (duplicates.go).
// Faces with little texture give few keypoints: an outline no fit names is
// named by its look (appearance.go: colour thumbnails compared per channel
// after what a flat tone, ramps and the kind's mean face explain is taken
// out; a name only well clear of every other face's, and a look a little
// short of clear, as glare or a blur leaves it, only when the frame's
// keypoints in the outline agree with that face clearly more often than
// with the other faces of its size; an outline found a
// little off its card, in place or in size, is first aligned on the
// kind's layout by millimetre steps and percent scales; a small patch a
// lamp's reflection burnt to white, and its rim, take the thumbnail's
// median colour first, so that they weigh nothing; an outline whose
// best fit is a card's face shrunk to a token's is compared as that card's
// kind), a site under a card
// by the look of the part that shows (appearance_masked.go). As the look
// and the grey comparison of covered sites take each channel's flat tone
// out, a face named by either must also have the colours of what shows:
// the channels' median ratios to the face's may not lie far apart, as a
// colour cast lets them (covered_tone.go); the frame's own cast (a warm
// lamp, a camera balanced for other light), read off the cards the
// keypoints name firmly, is taken out first, and out of the hand test's
// image too (light_cast.go). A card that mostly shows and whose ratios
// lie apart is read again with a lamp's glare taken out (the white light
// added over part of it, which raises its dark channels most): its least
// brightened third, and the whole of it less the white light its
// channels share, must both have the face's colours. Tokens
// lying on other cards are looked for where the side search's segments or
// an unnamed card propose one, by four sides a token's size apart on the
// side search's edges (checked as a card's sides are), and in the cell of
// a card found by its outline but not named, on Canny's edges of that cell
// with the card's own face left in; each is kept only when its look names
// a token (outline_tokens.go), and of the rectangles proposed for one
// token (a few millimetres apart: a rim beside a card's edge can make the
// one off the token the best supported) the others are looked at in turn
// when the best supported names none. A token-sized panel printed on a found card's face
// is not a token. A token lying on a named card, whose face the searches
// above leave out, is looked for where a token-sized part of that face
// does not look like the face (its colour thumbnail, toned to what shows),
// in a token-sized rectangle that disagrees with the face and differs from
// the mat beside it (token_on_face.go); only the named cards whose
// inliers leave bare a token-sized part of the face's keypoints are
// compared (token_on_face_gate.go). When the catalog holds a token face with few corners of
// its own (poster-like art that keypoints cannot name), a lone straight
// edge about a token's side long (a name band's border, the token's pale
// rim too faint for the frame's edges) proposes the token on either side
// of it too, looked for at the second look's thresholds and named also a
// few millimetres off along either axis.
// A card whose border shows faintly (a pale card on a pale mat, a frame
// out of focus) leaves straight edges that no card found explains; on the
// side of such an edge where no card lies, the edges are looked for again
// at about a third of the thresholds, a card's length deep (at most a quarter of the
// image a frame, the longest edges first), and the side search reads them
// (outline_again.go).
// A card lying on a found card keeps its sides: the side search proposes
// rectangles on edges with the found cards blanked, but checks them with
// only a thin band along each found card's outline cleared, and a
// rectangle that misses the edges only where it crosses a matched face is
// checked again on edges found anew in a window around it, nothing left
// out (outline_sides.go, windowEdges). A card whose four sides show but
// one of them only over part of its length (its rim pale where it crosses
// a pale card under a lamp's glare), and one alone on the mat whose fourth
// side is too faint, are kept only when their look names them
// (outline_three.go).
// A card partly under others is looked for after the covered sites, from
// leftover straight edges that run into a card found and from parallel
// side pairs partly under one: kept when at least 45% of its border and
// inside show, on edges and standing out, a whole side of a card's length
// with both corners shows, and it is not bare mat by a grid line
// (outline_under.go). What the camera frame does not show hides a card
// as a card found does: a card cut by the frame's edge is found so too,
// and named by the part in the frame.
// A card off the grid lying across the view's own border (the margin's
// edge) loses its keypoints beyond it: where the keypoints near the
// border that no card explains fit one face weakly, a small window of the
// camera frame around it, reaching beyond the border, is warped at the
// view's scale and matched on its own (beyond_view.go).
// Once all of a frame's cards are fitted, every named card's face is laid
// over what the camera shows of it and checked cell by cell (a 4×4 grid
// over the face, so no card design is assumed): where parts of the card
// that nothing lies on disagree with the face, the name is dropped and the
// card reported unknown with its outline, kind and turn (consistency.go),
// unless its look names it the same, clearly (glare or a sleeve's
// reflection disagrees with the keypoints in places, not with the colours
// of the whole face).
// This is what keeps a small catalog, such as one deck's faces, from naming
// a card it lacks after one that shares its frame and text.
// A feature-matched card fitted 10% or more off the size of the frame's
// other cards is kept only on strong evidence (scale.go,
// sizedAsTheirFellows): every card has its face's size in the top-down view.
// A card region (such an outline, or the picture given to Identify) is
// named by its hash-table matches alone when they fit one shortlisted face
// three times as well as a whole frame needs and no other face at all;
// else its keypoints are also matched near where its outline puts them on
// the faces that fit it (guided matching), which a catalog of a thousand
// faces needs.
//
// Before keypoints are looked for, the top-down image is equalised tile by
// tile (contrast-limited, one tile per cell width), so that a card in a
// lamp's shadow, a darkened lens corner or a dim room still yields corners:
// exactly OpenCV's CLAHE, by an equaliser of the package's own
// (contrast.cpp).
// A frame's keypoints and descriptors are exactly those OpenCV's ORB (FAST
// scores) gives, computed by a detector of the package's own (orb.cpp) that
// runs FAST at a higher threshold when the last frame shows that it finds
// the same top corners, and computes descriptors eight samples at a time,
// on demand: only the keypoints a matching pass looks up are described
// (about two thirds of them), the rest never are.
//
// A site under a unit centred on it shows only its two short ends, about
// 12 mm each. Every cell holding a unit and no site is searched for one:
// every placement of a nearly axis-aligned site is scored by how much of
// its visible outline lies on card edges (a wide step, which a mat's thin
// grid lines are not), read from running sums; at the best two, each site
// face, both turns, shifted a few millimetres, is compared with what shows
// by partial correlation with the mean site face taken out. A site is named
// when one face leads every other by a margin that shrinks with the square
// root of the visible area, and a site is seen to lie there at all: what
// shows correlates with the mean site face (the layout all sites share), or
// the outline clearly shows (an end and both its corners on edges), and
// what shows beside the cards on top is not the bare mat (flat, in the
// colour of the mat around it: covered_mat.go). Else it
// is reported as an unknown site when its outline clearly shows. A site
// the searches of two cells both find (a unit lying across a cell's
// border) is reported once.
//
// The top-down view is drawn at the cell size the calibration states
// (100×75 mm by default), which puts every card at its reference face's
// size only on a mat whose cells have that size. Until a view's cell size
// is confirmed, the best-fitted cards (up to six a frame, pooled over the
// last frames) are measured along x and y apart (their keypoints matched
// again to their face near where the fit puts them, a scale per axis fitted
// with RANSAC), which shows a mat of another aspect too; once confirmed,
// the fits' own scales are checked, at no cost. When at least three cards
// agree that the size is off by more than 6% (a tight or roomy playmat, or
// another aspect), the frame is read again at the cell size they show, and
// the Analyzer keeps it (Geometry) for the frames after it.
//
// The catalog is indexed once (site scans stored portrait are turned to
// landscape; faces are also indexed at half and a third of their resolution,
// as far cards look, and blurred, as a camera out of focus sees them: the
// strongest corners only) and the index is cached on disk, keyed by the
// catalog's content. A hand or arm reaching over the realm (a large skin-coloured blob,
// not the mat's own colour nor a card's art, crossing the realm's edge, where
// what lies off the cards found is not a card's straight-sided piece: the end
// of a frameless site of skin-toned art under a unit of the same joins it; or,
// an arm in a sleeve, a whole skin blob larger than a card and not
// card-shaped anywhere over the realm: cards not found punch holes in it
// with their printed frames and text) marks the frame occluded; so does another large object over the realm
// (foreign.go): off the cards found and the grid lines, a region of colours
// the visible mat nowhere shows, at least 3% of the realm, with a sharp edge
// (a lamp's glare fades out), not card-shaped and not in the found cards'
// main colours (both are most likely a card the search missed). An Analyzer keeps the last stable frame: a frame in
// which no part of the realm changed costs a half-resolution warp and a
// difference. While it stays still and the stable reading holds an unnamed
// card, every 2nd frame is read again (8 times at most) and a name read for
// a card in its place is taken (stable.go): a card on the edge of being
// named fails in one frame of several and would stay unnamed.
package vision
