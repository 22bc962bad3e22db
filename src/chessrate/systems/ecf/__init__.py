"""ECF ratings (English Chess Federation), the monthly K method."""
