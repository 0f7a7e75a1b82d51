// Package motionblur finds the straight smear that a camera moving while
// it exposes leaves on an image, and undoes it. Calibration uses it to
// find the realm on a smeared frame, and vision to read the cards on one.
//
// A camera that moves while it exposes (a knock on the table, a hand-held
// phone, a stand that sways) smears the whole frame along one line: every
// step is spread evenly over the smear's length, the cards' sides across
// it fade and their print runs together, and the grid's lines across it
// widen into bands. Such a smear can be undone, to a good degree, once its
// length and direction are known.
//
// Both are read from the image's cepstrum (the Fourier transform of the
// log of its power spectrum). A smear over L pixels multiplies the
// spectrum by a sinc whose zeros repeat every 1/L along the smear's
// direction; in the log they are deep, evenly spaced troughs, which the
// cepstrum turns into a sharp negative peak at L pixels from its origin,
// in that direction. A sharp image, or one blurred evenly (out of focus),
// has no such peak: its log spectrum falls smoothly. The peak is looked
// for in the mean log spectrum of a few windows spread over the part of
// the image that matters, so that cards, mat and print all contribute
// (Find). The image must also be soft along the smear and sharper across
// it, measured by the sharpness of its steps (LineSteps), which vision
// uses to scale its edge thresholds too.
//
// The smear is then undone by a Wiener filter (Smear.Undo): the image's
// spectrum is divided by the smear's, except where the smear's is so
// small that the division would only raise the noise.
//
// It needs gocv and models only.
package motionblur
