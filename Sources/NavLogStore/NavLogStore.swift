// Storage module: the .navlog format on liblz4.
import CLZ4
