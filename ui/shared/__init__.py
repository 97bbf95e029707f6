"""What every page uses: frame and menu, page state and notices, share links, the grid
editor, pooling controls, the player, the chart wrapper and number formatting."""
