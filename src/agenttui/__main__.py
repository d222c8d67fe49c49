from agenttui.cli import main

raise SystemExit(main())
