package live_test

import (
	"fmt"
	"os"

	"github.com/tablecam/tablecam/ui/live"
)

func ExampleOptions_Args() {
	var o live.Options
	fs := live.NewFlagSet("tablecam", &o, os.Stderr)
	if err := fs.Parse([]string{"--camera", "0", "--catalog", "my-cards", "--stream", "--chroma", "#00ff00"}); err != nil {
		panic(err)
	}
	fmt.Println(o.Args())
	fmt.Println(o.Background())
	// Output:
	// [--camera 0 --catalog my-cards --stream --chroma #00ff00 --volume 0.8 --size 1280x720]
	// {0 255 0 255}
}
