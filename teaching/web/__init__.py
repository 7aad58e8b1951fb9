"""Teaching's pages: the workspace (/teach/) and administration (/administration/)."""
