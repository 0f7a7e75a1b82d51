// Package vision reads one rectified realm image: it finds every card's quad, its kind (site,
// standard, token), its rotation and so its owner and whether it is tapped, identifies it against the
// catalog's reference faces, and flags frames occluded by a hand.
package vision
