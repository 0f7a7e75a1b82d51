// Package calibration finds the Sorcery realm (the 5×4 grid of the playmat) in a camera frame and maps
// between camera pixels, realm millimetres and a top-down realm image.
//
// A Calibration holds the realm's outer corners A1 (south-west), E1, E4 and A4 in image pixels. Detect
// finds them from four printed ArUco markers (DICT_4X4_50, ids 0–3 at A1, E1, E4, A4, see
// MarkerLayout) when all are visible, else from the mat's grid, read at a working width of 1280 px
// (wider frames are shrunk to it, narrower ones enlarged before they are blurred, so that a line a
// pixel or two wide in a cheap webcam's frame keeps its contrast and every length in pixels keeps its
// meaning): long straight segments (Hough on a half-size edge image; when no lattice of drawn lines is found on
// them, once more on those that run along a thin drawn line only, as the stripes of a tablecloth or a
// table's planks outnumber the grid's lines, drawnlines.go) are grouped by direction, each direction is read as a 1-D projective lattice
// of 6 or 5 lines (RANSAC over line triples), hypotheses are ranked by how much of the canonical grid
// lands on drawn lines (pairs of opposite edges, tolerant of lines hidden under cards, penalised when
// a lattice line one cell outside the realm is also there), and the best are refined by snapping every
// grid line to its edges; the best two are then polished by moving their four corners while the score
// grows, and the winner is compared with its aliases (shifted by a cell, twice or half the line
// spacing) on a more sensitive edge map. Every lattice is then checked against the drawn lines
// themselves (a ridge response: a point darker, or lighter, than both its flanks, read straight off
// the grey frame): a lattice of card edges and art whose lines are not drawn lines is refused (each cell side may
// show a few pixels off the straight lattice: a lens's barrel distortion or a mat not lying flat bends the lines), and a
// right one is polished onto the lines' centres (when that climb leaves faint lines for the cards
// crossing them, each corner is looked for up to 10 px beyond it on the ridge score instead: a site's
// dark outline snug in a corner cell can hold a corner of the edges' lattice on it); when its lines
// are not clearly drawn lines (ridge score below 1.2), the profile search below also runs and replaces
// it if it finds a lattice of clearer lines that is not the same one moved by whole cells (a lattice
// line outside the realm counts only for
// the part the frame shows); a different grid must be clearly clearer (by 0.2), and one about as clear
// as the edges' lattice means two grids explain the lines about equally (half the grid lost in a dim
// corner or crushed to black): no realm rather than a coin toss (unless the profile search does not
// believe its own lattice and the edges' grid ends at its border, see below: what cards leave of the
// lines on a mat whose cells they nearly fill); a lattice of the same realm whose lines the profile search
// shows more clearly replaces the edges' one even when the profile search does not believe it alone (the
// edges fitting lines a lens bows can put the corners a few percent off). Last, the lattice is moved by one
// cell, along either axis, when the move shows more clearly as drawn lines once its corners are
// polished and also covers more of the sensitive edge map's grid (a row of card borders or the mat's
// edge taken for the border); the moved lattice's lines are snapped to their edges again.
// When no edge lattice is trusted (faint, blurred or
// broken lines on busy art), the grid is read off line profiles instead: vanishing points of the
// frame's straight lines (all of them, and the mat's opposite edges, and each moved to where the
// frame's line response lines up best, searched up to 12° either side (the best few maxima of a coarse
// scan each climbed), since card edges and a grained
// table pull a Hough estimate a degree or two off, the receding direction's 8° or more) give an affine
// top-down view,
// every row and column of it sums the ridge response, the realm's 6 and 5 equally spaced lines are
// read off the profiles' peaks (each direction's best few also re-read the other direction's profile
// across their own span only, where the realm's lines run: over the whole view, the table, the mat's
// margin and cards beyond the realm drown lines half under cards), and the best lattices are polished
// by climbing their corners on the same response, then moved by a cell when that shows clearer lines,
// and judged once polished onto the lines' centres (and moved a cell onto the mat when the mat's edge runs
// through its border column or row, see below: the realm lies there);
// a lattice no pinhole camera could see (cells of the wrong aspect) is refused; one with a corner outside the
// frame (a webcam that cuts off a corner of the mat) is judged only when no lattice the frame holds whole
// is believed, and believed only when its lines are fairly clear, its cells of the shape a pinhole camera sees,
// and its grid shows and ends at its border where the frame shows it: the frame shows part of each border
// row and column, and each lattice a cell over shows clearly less on the cell sides the frame shows that only
// one of the two has (the ridge score reads only what the frame shows, and cannot tell the realm from the
// same lattice moved a cell further off the frame, beyondframe.go); and one whose lines are only fairly clear (a grid half under cards, gold lines
// light on dark art and dark on light) is believed only when its cells are of the shape a pinhole camera
// sees, to a tighter bound than a clearer lattice's (a dashed grid's rows with columns on a wooden table's
// grain beside the mat show fairly clear), and the edges, read independently, cover at
// least a tenth of its grid and find none of its aliases (a cell off, twice or half the spacing)
// better, or, fainter still (a cheap webcam's frame, a dark or blurred room, where Canny pairs too few
// edges), when its grid shows on most of its cells' sides, as much on its odd lines as on its even ones,
// and ends at its border on every side (each lattice a cell over shows clearly less on the sides the two
// do not share); when the edges found no lattice at all, such a lattice whose odd lines show like its even
// ones along one axis only is believed too, when its cells are of the shape a pinhole camera sees and the
// other axis's odd lines are hidden rather than absent: not bare cloth (see bare.go), as the cells' middles
// are under a lattice of half the spacing along that axis (a faint grid in a cheap webcam's frame with a
// row of cards lying across the borders, faint.go). Whichever way it was found, the lattice is last moved by a cell, along either axis, while the cell
// sides that only the moved lattice has show drawn lines more clearly than the sides it gives up (each side
// judged alone, so that a covered side is missing rather than against): the realm's lines end at its border,
// so a lattice whose border column lies under an arm and whose other border runs over the mat's empty margin
// goes back onto the realm. The realm is printed on the mat, so when the mat's own edge (a sharp step of
// one sign, flat on either side, along the realm's whole length, with the mat's cloth on the realm's side:
// an arm lying across the realm steps as sharply, but the arm lies on that side) runs through the lattice's
// border column or row, the lattice is moved a cell away from it, or refused (so it is when the realm's side
// of the edge is not the cloth, dark art along the mat's edge, but neither the lattice's border there nor any
// side across its border row shows a drawn line: the table lies beyond the edge, where an arm's step has the
// realm's border beyond it). The realm's lines run from border to border, so a lattice whose lines across its
// outer two rows (or columns) show nowhere while they show on most sides elsewhere, or whose lines along one
// axis show while not one side of the other axis's does, is refused: stripes of a table or tablecloth beside
// the mat, parallel to the realm's rows, taken for the realm's (shortlines.go). A mat that draws its grid as unbroken lines
// draws every cell side from end to end, so when the sides a lattice shares with the lattice a cell over are
// almost never bare cloth (read by colour: the cloth beside the lattice's clearly drawn sides, no line across
// a band a few pixels wide), while most of the sides it would give up run over bare cloth and the sides it
// would gain are bare nowhere (under an arm or cards), it is moved that cell: zone boxes printed in the
// margin, broken between the boxes, pass for the realm's border row when an arm hides the true one (bare.go).
// For the same reason a lattice of which two or more inner lines run over bare cloth, each between lines
// drawn unbroken, is refused: a lattice of half the drawn lines' spacing (every other line across the
// cells' middles) shows about as clearly as drawn lines as a right one. A line that shows no drawn line
// anywhere along it counts as over bare cloth when a quarter of it is (the rest across cards) and a drawn
// line runs two cells past the lattice's border that way (the grid goes on at twice its spacing), or the lines
// across its border run on past it as drawn lines (on a mat printed without a border): a camera
// turned a right angle gives a lattice whose columns lie on the realm's rows and whose rows lie at half
// the columns' spacing, its odd rows across the cells' middles, over cloth and sites. So is a lattice both of whose
// border lines along one direction run over bare cloth while a line between is drawn unbroken: one of a
// wider spacing than the grid's, reaching past the realm on both sides (its inner lines on the dark
// borders of rows of tokens lying across the realm's lines, which hide those lines), unless the lines across
// those border lines end there, drawn unbroken along the border's cells and over bare cloth just past it:
// a mat that prints its grid without a border (bare.go). When the profile
// search's lattice is refused so, its best lattice of another realm is judged in its place (twice at
// most); and a lattice of the profile search refused so is no rival grid to the edges' lattice.
// And whichever way it was found, a lattice
// whose cells no camera over a table could see in that shape (square pixels, principal point at the
// frame's centre, a field of view of 19° or more: a lattice of half the row spacing over half the realm
// needs a grazing telephoto view) is refused.
// A mat that prints no lines, only a mark at each of the cells' corners, is read, when neither the
// edges nor the profiles find a grid, off its corner marks: dots (points that stand out from the mat in
// every direction) and junctions of thin lines (small crosses, a T along the realm's border and an L at
// its corners, or dashed lines crossing at the corners: a ring round the point crosses two to four arms
// with plain mat between them, junctions.go). A lattice is grown from each mark and two alike
// neighbours, following perspective and a little lens bending (a junction joins only a neighbour its
// arms point at, and that points back, so a lattice of junctions steps over a corner hidden by a card
// and stops at the realm's border, where the T's and L's have no arm outward; it is then reread from
// the whole lattice's prediction, and its junctions are centred where their arms meet), and believed
// only when it holds exactly the realm's 6 by 5 corners (16 or more seen, 3 or more on each border
// line, a junction far off the fitted lattice dropped as a card's corner), its marks look alike (prints
// of one mark, not card corners and art that happen to fall in line; a mat that prints other marks along
// the border, a T, an L, a frame round the realm running through them, is judged on 8 or more of its 12
// inner marks, where four cells meet), and no other lattice of marks,
// of either kind, makes another realm (marks.go). Of the lattices that make the same realm, the one
// that fits its marks best is taken, refitted to its border marks when most are seen (a lens's barrel
// distortion bows the lattice; its border is where the realm's corners are).
// Last, a lattice of lines (not of marks) is corrected for the lens (bentcorners.go): a wide-angle lens's
// barrel distortion bows the grid's lines, so the straight lattice that fits them best misses the realm's
// corners, drawn toward the frame's centre, by a percent of the realm's width or more. The drawn lines'
// centres are read across each of the lattice's 11 lines, the one radial distortion k about the frame's
// centre under which they are straightest is found (r(1 + k·r²), r in half diagonals; none unless it
// straightens clearly more of the lines), and the corners are put where the border lines, straight once
// undistorted, meet (a border seen too little is the lattice's, fitted to where the other lines cross),
// distorted back; the lines are read a second time along the curves that lens makes of the corrected lattice,
// and the correction is kept only when every border shows along its curve about as clearly as along the
// straight lattice's line or more (a border read off a card's edge would move its corners off the line).
// A strong lens (a wide-angle webcam, k 0.06 or more) bows the border lines so much that the corners read
// along them can miss by a percent or two of the realm's width: the realm is then read again on the frame
// undistorted by the k the lines gave, where they are straight, and its corners mapped back (kept when it
// is the same realm, lensretry.go). A lens strong enough that no straight lattice fits the bowed lines at
// all leaves every search above empty: then the frame is undistorted by a strong lens (k 0.08, then 0.16)
// and searched again, the corners mapped back, and kept only when the frame's own lines near them bend as
// a lens of at least half that k bends them (undistorting a frame of straight lines bends them the other
// way, and a lattice can then fit lines it should not). A lattice the line profiles found, on which no strong
// lens is read, is checked the same way: through a wide-angle lens the profiles of bowed lines can line
// up best a cell off the realm, so the frame is searched again undistorted by k 0.08, and a different
// realm found there whose lines bend as that lens bends them replaces it.
// A frame out of focus spreads thin lines too shallow for every search above; when none believes any
// lattice at all (not when one was found and refused), the grid is searched once more on the frame
// sharpened by an unsharp mask at the working width (sharpen.go), and a lattice found there is taken only
// when its cells are of the shape a pinhole camera sees, to the tighter bound (sharpened, the table's grain
// and the art show lines too, and a lattice of the realm's rows with columns of another spacing passes the
// looser one). So it is when the edges' lattice and
// the line profiles' different one are about equally clear: a camera moving during the exposure smears
// each line across it into a shallow band a dozen pixels wide, whose two sides Canny still pairs but
// whose ridge response, read a few pixels either side of the centre, falls to about the noise's. The
// realm found on the sharpened frame is taken only when it is the edges' lattice (a turned camera's
// frame can split the evidence between two wrong grids, one of which the sharpened frame shows too).
// When no search above finds a realm, the grid is also read over the mat's cloth alone (the commonest
// colour of the frame's middle, cloth.go), with vanishing points lined up on the line response over the
// cloth too: a table's grain or a striped cloth beyond the mat outweighs a grid drawn in thin or dashed
// lines when the whole frame's response is lined up. When no search found any lattice at all, the grid
// is searched once more on the frame's opponent colour channels (lines of another hue but the cloth's
// lightness, chroma.go), and then with the vanishing points guessed from the frame's lines less those of
// their dominant direction (broad stripes on the table, a dashed grid: stripes.go).
// When all of that finds no realm, every search above runs once more on the window round the patches
// of colours the frame's border (the table, seen from afar) does not show, enlarged to the working width:
// a camera far from the table shows the realm narrower than any lattice the searches believe, its lines
// too short for the Hough segments; a realm found there is taken only when it is that small and no corner
// lies at a side where the window cuts the frame (far.go). When that finds none either, the edges' and the
// profiles' search runs once more on the frame with the table round the mat smoothed away (everything off
// the hull of the patches of colours the frame's border does not show), reading only the straight segments
// over the mat, and the lines' response in units of the mat's own typical response: a table's stripes,
// checks or grain outnumber the grid's lines, take every lattice the searches propose and drown the mat's
// lines in their noise; a lattice found so that the frame as it is shows a cell over more clearly is refused
// (the mat's patch can leave out a border row of a mat of about the table's colours), and so is one whose
// lines cross the cells' middles between drawn ones (a mat of the table's colours reaching the frame's edge
// leaves only its cards for the patch, onmat.go). When that finds none either, the profile search runs once
// more alone, its vanishing points lined up on how far the line response gathered along each line stands out
// from that along its neighbours rather than on its total (a pencil crossing the frame's busy parts the long
// way, a grained table in two corners, stacks their response into fewer bins and outweighs faint lines), and
// guessed from the perpendicular of each of the frame's two strongest directions (cards lying alike make the
// strongest theirs); of the lattices with a corner outside the frame, each of the best few is also settled and
// judged on its own (detrended.go).
// The retries that cost only frames no search before them found a realm in, each of which takes
// seconds on a frame that has none (the two strong lenses and the sharpening; the smear undone at its
// first two lengths; the search over the cloth and the wide masks' sharpening), run at once on their own goroutines and are judged in the order above: the same
// realm as one after another, given sooner on a machine with several cores. The smear's third length
// is tried only when one of the first two found a lattice, as no two lengths can agree otherwise.
// A doubtful grid gives ErrNotFound rather than a guess; FromCorners and ParseCorners
// take the corners from the user instead.
//
// Rectify warps a frame to the top-down realm image (PxPerMM, north at the top, column A at the left).
// Save and Load keep a calibration as versioned JSON with a small reference of how the grid lines looked,
// which Drifted compares new frames with to notice that the camera or the mat has moved.
//
// The sub-package aruco is a thin cgo binding to OpenCV's contrib aruco module.
package calibration
