// Package imagefile tells an image file cut short from a whole one.
//
// A JPEG or PNG file cut short (a copy or a download interrupted, a frame
// still being written) still decodes: OpenCV fills what is missing with grey
// and says so only on the terminal. A frame read so shows a flat grey band
// where the realm and its cards are looked for; a card's scan read so
// indexes a face half grey. Check tells such a file by how JPEG and PNG files
// end; it reads no pixels.
package imagefile
