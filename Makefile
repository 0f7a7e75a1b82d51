# tablecam build. `make run` and `make test` first install any missing Debian packages.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin:$(HOME)/go/bin

DEBS := pkg-config libopencv-dev libopencv-contrib-dev libgl1-mesa-dev libxcursor-dev libxi-dev \
	libxinerama-dev libxrandr-dev libxxf86vm-dev libasound2-dev portaudio19-dev xvfb xauth alsa-utils

BIN := bin

.PHONY: all deps build run test vet staticcheck bench samples clean

all: build

# deps installs the Debian packages that are missing (as root), or prints the exact command to run.
deps:
	@missing=$$(for p in $(DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q "install ok installed" || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing: $$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
		else \
			echo "tablecam needs these Debian packages. Run:"; \
			echo "  sudo apt-get update && sudo apt-get install -y $$missing"; \
			exit 1; \
		fi; \
	fi

build: deps
	go build -o $(BIN)/tablecam ./cmd/tablecam
	go build -o $(BIN)/tablecam-overlay ./cmd/tablecam-overlay

run: build
	$(BIN)/tablecam

vet:
	go vet ./...

staticcheck:
	go tool staticcheck ./...

test: deps
	go vet ./...
	go tool staticcheck ./...
	xvfb-run -a go test -count=1 -timeout 9m ./...

bench: build
	xvfb-run -a go test -run '^$$' -bench . -benchtime 1x ./...
	$(BIN)/tablecam bench catalog
	$(BIN)/tablecam bench vision --frames samples/stills
	$(BIN)/tablecam bench tracker --game samples/games/demo

samples: build
	go generate ./samples/...

clean:
	rm -rf $(BIN)
