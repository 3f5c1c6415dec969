from pysym.cli import main

raise SystemExit(main())
