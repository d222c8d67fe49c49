"""Full backups and restore, with the limits restore holds an archive to."""
